// chess5d web GUI: plain modern JS, no build step. Talks to the JSON API and the game WebSocket.
'use strict';

const $ = (s) => document.querySelector(s);
const SVGNS = 'http://www.w3.org/2000/svg';
const SQ = 40;

// Piece outlines (filled silhouette and line drawing) of the chess glyphs of DejaVu Sans
// (U+265A-F and U+2654-9; free licence, see https://dejavu-fonts.github.io/License.html),
// scaled to a 40-unit square. Each path starts with one absolute M and is otherwise relative,
// so a piece is moved to a square by rewriting that first M only.
const PIECE_PATHS = {
  K: { fill: "M18.8 16.3q0 0 .1 -.1q-.6 -.7 -1.5 -1.2q-1.2 -.7 -2.5 -.7q-1.3 0 -2.6 .7q-1.2 .7 -1.9 2q-.7 1.2 -.7 2.5q0 1.4 .7 2.6q.7 1.3 1.9 1.9q.4 .3 .8 .4l5.7 0zm2.4 8.1l5.7 0q.4 -.1 .8 -.4q1.3 -.6 1.9 -1.9q.7 -1.2 .7 -2.6q0 -1.3 -.7 -2.5q-.7 -1.3 -1.9 -2q-1.3 -.7 -2.6 -.7q-1.3 0 -2.5 .7q-.9 .5 -1.5 1.2q.1 .1 .1 .1zm-7.5 1.7l0 5.1l12.7 0l0 -5.1zm-1.4 6.5l0 -6.5q-.7 -.2 -1.4 -.6q-1.1 -.9 -2 -2.5q-.9 -1.7 -.9 -3.5q0 -1.8 .9 -3.4q.9 -1.7 2.6 -2.6q1.6 -.9 3.4 -.9q1.3 0 2.6 .6l0 -.1q0 -.6 .3 -1.1q.3 -.5 .8 -.8q.3 -.2 .5 -.2l0 -.9l-1.8 0l0 -1.2l1.8 0l0 -1.5l1.8 0l0 1.5l1.8 0l0 1.2l-1.8 0l0 .9q.3 0 .5 .2q.5 .3 .8 .8q.3 .5 .3 1.1l0 .1q1.3 -.6 2.6 -.6q1.8 0 3.4 .9q1.7 .9 2.6 2.6q.9 1.6 .9 3.4q0 1.8 -.9 3.5q-.9 1.6 -2 2.5q-.7 .4 -1.4 .6l0 6.5zm6.1 -19.3q0 .4 .2 .7q.3 .4 .6 .6q.4 .2 .8 .2q.4 0 .8 -.2q.4 -.2 .6 -.6q.2 -.3 .2 -.7q0 -.4 -.2 -.8q-.2 -.4 -.6 -.6q-.4 -.2 -.8 -.2q-.4 0 -.8 .2q-.3 .2 -.6 .6q-.2 .4 -.2 .8zm7.1 13.7l0 3.4l-11 0l0 -3.4zm-7.5 -3.5l-4.7 0q-.3 -.1 -.6 -.3q-1 -.5 -1.6 -1.5q-.5 -1.1 -.5 -2.2q0 -1.1 .5 -2.1q.6 -1.1 1.6 -1.6q1 -.6 2.1 -.6q1 0 2 .6q.7 .4 1.2 1q0 0 0 0zm4 -6.7q0 0 0 0q.5 -.6 1.2 -1q1 -.6 2 -.6q1.1 0 2.1 .6q1 .5 1.6 1.6q.6 1 .6 2.1q0 1.1 -.6 2.2q-.6 1 -1.6 1.5q-.3 .2 -.6 .3l-4.7 0z", line: "M18.8 16.3q0 0 .1 -.1q-.6 -.7 -1.5 -1.2q-1.2 -.7 -2.5 -.7q-1.3 0 -2.6 .7q-1.2 .7 -1.9 2q-.7 1.2 -.7 2.5q0 1.4 .7 2.6q.7 1.3 1.9 1.9q.4 .3 .8 .4l5.7 0zm2.4 8.1l5.7 0q.4 -.1 .8 -.4q1.3 -.6 1.9 -1.9q.7 -1.2 .7 -2.6q0 -1.3 -.7 -2.5q-.7 -1.3 -1.9 -2q-1.3 -.7 -2.6 -.7q-1.3 0 -2.5 .7q-.9 .5 -1.5 1.2q.1 .1 .1 .1zm-7.5 1.7l0 5.1l12.7 0l0 -5.1zm-1.4 6.5l0 -6.5q-.7 -.2 -1.4 -.6q-1.1 -.9 -2 -2.5q-.9 -1.7 -.9 -3.5q0 -1.8 .9 -3.4q.9 -1.7 2.6 -2.6q1.6 -.9 3.4 -.9q1.3 0 2.6 .6l0 -.1q0 -.6 .3 -1.1q.3 -.5 .8 -.8q.3 -.2 .5 -.2l0 -.9l-1.8 0l0 -1.2l1.8 0l0 -1.5l1.8 0l0 1.5l1.8 0l0 1.2l-1.8 0l0 .9q.3 0 .5 .2q.5 .3 .8 .8q.3 .5 .3 1.1l0 .1q1.3 -.6 2.6 -.6q1.8 0 3.4 .9q1.7 .9 2.6 2.6q.9 1.6 .9 3.4q0 1.8 -.9 3.5q-.9 1.6 -2 2.5q-.7 .4 -1.4 .6l0 6.5zm6.1 -19.3q0 .4 .2 .7q.3 .4 .6 .6q.4 .2 .8 .2q.4 0 .8 -.2q.4 -.2 .6 -.6q.2 -.3 .2 -.7q0 -.4 -.2 -.8q-.2 -.4 -.6 -.6q-.4 -.2 -.8 -.2q-.4 0 -.8 .2q-.3 .2 -.6 .6q-.2 .4 -.2 .8z" },
  Q: { fill: "M10.2 15.4q-1.6 0 -1.8 -1.6q0 -.5 .2 -.9q.3 -.4 .7 -.6q.5 -.3 1 -.3q.4 0 .9 .3q.4 .2 .7 .6q.2 .4 .2 .9q-.1 1.1 -1 1.5l4 8.5l-.9 -11.8q-1.4 0 -1.7 -1.6q0 -.5 .3 -.9q.2 -.4 .7 -.6q.4 -.3 .9 -.3q.5 0 .9 .3q.5 .2 .7 .6q.3 .4 .3 .9q-.1 .8 -.8 1.3l3.1 12.6l.8 -13.8q-1.2 -.5 -1.2 -1.3q0 -.5 .3 -.9q.2 -.4 .7 -.6q.4 -.3 .9 -.3q.4 0 .9 .3q.4 .2 .7 .6q.2 .4 .2 .9q0 .9 -1.1 1.3l.6 13.8l3.1 -12.4q-.8 -.8 -.8 -1.5q0 -.4 .3 -.9q.2 -.4 .7 -.6q.4 -.3 .9 -.3q.5 0 .9 .3q.5 .2 .7 .6q.3 .5 .3 .9q-.2 1.4 -1.7 1.7l-1.5 11.7l4.3 -8.7q-.7 -.6 -.7 -1.3q0 -.5 .2 -.9q.3 -.4 .7 -.6q.5 -.3 .9 -.3q.5 0 1 .3q.4 .2 .7 .6q.2 .4 .2 .9q-.2 1.6 -1.9 1.6l-2.6 7.8l0 9.4l-14.5 0l0 -9.4zm15.9 11.2l0 -1.3l-12.2 0l0 1.3zm0 5l0 -1.3l-12.2 0l0 1.3z", line: "M10.2 15.4q-1.6 0 -1.8 -1.6q0 -.5 .2 -.9q.3 -.4 .7 -.6q.5 -.3 1 -.3q.4 0 .9 .3q.4 .2 .7 .6q.2 .4 .2 .9q-.1 1.1 -1 1.5l4 8.5l-.9 -11.8q-1.4 0 -1.7 -1.6q0 -.5 .3 -.9q.2 -.4 .7 -.6q.4 -.3 .9 -.3q.5 0 .9 .3q.5 .2 .7 .6q.3 .4 .3 .9q-.1 .8 -.8 1.3l3.1 12.6l.8 -13.8q-1.2 -.5 -1.2 -1.3q0 -.5 .3 -.9q.2 -.4 .7 -.6q.4 -.3 .9 -.3q.4 0 .9 .3q.4 .2 .7 .6q.2 .4 .2 .9q0 .9 -1.1 1.3l.6 13.8l3.1 -12.4q-.8 -.8 -.8 -1.5q0 -.4 .3 -.9q.2 -.4 .7 -.6q.4 -.3 .9 -.3q.5 0 .9 .3q.5 .2 .7 .6q.3 .5 .3 .9q-.2 1.4 -1.7 1.7l-1.5 11.7l4.3 -8.7q-.7 -.6 -.7 -1.3q0 -.5 .2 -.9q.3 -.4 .7 -.6q.5 -.3 .9 -.3q.5 0 1 .3q.4 .2 .7 .6q.2 .4 .2 .9q-.2 1.6 -1.9 1.6l-2.6 7.8l0 9.4l-14.5 0l0 -9.4zm15.9 12.6l0 -3.8l-3 1.3l-6.1 0l-3.1 -1l0 3.5zm-12.2 .8l0 2.8l12.2 0l0 -2.8zm-.7 -5.7l1.3 .7l-3.9 -8.8q.1 -.1 .2 -.1q.3 -.2 .5 -.5q.2 -.3 .2 -.6q0 -.3 -.2 -.6q-.2 -.3 -.5 -.5q-.3 -.2 -.6 -.2q-.3 0 -.6 .2q-.3 .2 -.5 .5q-.1 .3 -.1 .6q0 .3 .1 .6q.2 .3 .5 .5q.3 .1 .6 .1q.1 0 .3 0zm2.5 .7l2.3 .5l-3.2 -12.8q.1 0 .2 -.1q.3 -.1 .5 -.4q.1 -.3 .1 -.6q0 -.4 -.1 -.7q-.2 -.3 -.5 -.4q-.3 -.2 -.6 -.2q-.3 0 -.6 .2q-.3 .1 -.5 .4q-.2 .3 -.2 .7q0 .3 .2 .6q.2 .3 .5 .4q.3 .2 .6 .2q.1 0 .2 0zm6.1 .4l2 -.5l1.6 -12.1q.1 0 .2 0q.3 0 .6 -.1q.3 -.2 .5 -.5q.1 -.3 .1 -.6q0 -.3 -.2 -.6q-.1 -.3 -.4 -.5q-.3 -.2 -.6 -.2q-.3 0 -.6 .2q-.3 .2 -.5 .5q-.2 .3 -.2 .6q0 .3 .2 .6q.2 .3 .5 .5q.1 0 .2 .1zm-2.6 .1l1.7 0l-.8 -14q.3 0 .6 -.2q.2 -.1 .4 -.4q.2 -.3 .2 -.7q0 -.3 -.2 -.6q-.2 -.3 -.5 -.4q-.2 -.2 -.6 -.2q-.3 0 -.6 .2q-.3 .1 -.4 .4q-.2 .3 -.2 .6q0 .4 .2 .7q.1 .3 .4 .4q.3 .2 .5 .2zm5.7 -.5l1.8 -.7l2.7 -8.2q.2 0 .4 0q.3 0 .6 -.1q.3 -.2 .5 -.5q.2 -.3 .2 -.6q0 -.3 -.2 -.6q-.2 -.3 -.5 -.5q-.3 -.2 -.6 -.2q-.3 0 -.6 .2q-.3 .2 -.5 .5q-.1 .3 -.1 .6q0 .3 .1 .6q.2 .3 .5 .5q.1 0 .1 0z" },
  R: { fill: "M25.4 13.1l0 -1.6l-10.8 0l0 1.6zm1.2 16.4l0 -1.8l-13.2 0l0 1.8zm-9 -22.1l4.7 0l0 2.6l2.8 0l0 -2.6l4.6 0l0 2.8l-1.9 0l0 2.4l-1.6 2.5l0 9.8l1.6 2.5l0 2.4l1.9 0l0 2.8l-19.4 0l0 -2.8l1.9 0l0 -2.4l1.6 -2.5l0 0l0 -9.8l0 0l-1.6 -2.5l0 -2.4l-1.9 0l0 -2.8l4.5 0l0 2.6l2.8 0zm11.2 24.2l0 -.9l-17.5 0l0 .9z", line: "M17.6 7.4l4.7 0l0 2.6l2.8 0l0 -2.6l4.6 0l0 2.8l-1.9 0l0 2.4l-1.6 2.5l0 9.8l1.6 2.5l0 2.4l1.9 0l0 2.8l-19.4 0l0 -2.8l1.9 0l0 -2.4l1.6 -2.5l0 0l0 -9.8l0 0l-1.6 -2.5l0 -2.4l-1.9 0l0 -2.8l4.5 0l0 2.6l2.8 0zm11.2 24.2l0 -.9l-17.5 0l0 .9zm-3.4 -16.8l1.4 -2.2l0 -1.6l-13.6 0l0 1.6l1.4 2.2zm-10.8 10.9l-1.2 2l0 2.1l13.2 0l0 -2.1l-1.2 -2zm10.8 -.9l0 -9.1l0 -.1l-10.8 0l0 9.2z" },
  B: { fill: "M16.1 23.9q0 -1 .5 -1.9q.1 -.3 .3 -.5q-1 -.6 -1.6 -1.7q-.7 -1.2 -.7 -2.5l0 -.1q0 -1.3 .7 -2.6q.7 -1.2 2 -1.9q.5 -.3 1 -.4q-.4 -.3 -.7 -.8q-.4 -.7 -.4 -1.4q0 -.7 .4 -1.3q.4 -.7 1 -1q.7 -.4 1.4 -.4q.7 0 1.3 .4q.7 .3 1.1 1q.4 .6 .4 1.3q0 .7 -.4 1.4q-.3 .5 -.7 .8q.5 .1 1 .4q1.2 .7 2 1.9q.7 1.3 .7 2.6l0 .1q0 1.3 -.7 2.5q-.6 1.1 -1.6 1.7q.2 .2 .3 .5q.5 .9 .5 1.9q0 1 -.5 1.9l4.7 6.8l-16.2 0l4.6 -6.8q-.4 -.9 -.4 -1.9zm4.9 -3.7l0 -2.1l2.9 0l0 -1.8l-2.9 0l0 -2.1l-2 0l0 2.1l-2.9 0l0 1.8l2.9 0l0 2.1z", line: "M16.6 25.8q-.5 -.9 -.5 -1.9q0 -1 .5 -1.9q.1 -.3 .3 -.5q-1 -.6 -1.6 -1.7q-.7 -1.2 -.7 -2.5l0 -.1q0 -1.3 .7 -2.6q.7 -1.2 2 -1.9q.5 -.3 1 -.4q-.4 -.3 -.7 -.8q-.4 -.7 -.4 -1.4q0 -.7 .4 -1.3q.4 -.7 1 -1q.7 -.4 1.4 -.4q.7 0 1.3 .4q.7 .3 1.1 1q.4 .6 .4 1.3q0 .7 -.4 1.4q-.3 .5 -.7 .8q.5 .1 1 .4q1.2 .7 2 1.9q.7 1.3 .7 2.6l0 .1q0 1.3 -.7 2.5q-.6 1.1 -1.6 1.7q.2 .2 .3 .5q.5 .9 .5 1.9q0 1 -.5 1.9q0 .1 -.1 .1l4.8 6.7l-16.2 0l4.6 -6.8zm4.4 -5.6l0 -2.1l2.9 0l0 -1.8l-2.9 0l0 -2.1l-2 0l0 2.1l-2.9 0l0 1.8l2.9 0l0 2.1zm.7 5.6q1 -.8 1 -2q0 -.7 -.3 -1.4q-.4 -.6 -1.1 -1q-.6 -.3 -1.3 -.3q-.7 0 -1.4 .3q-.6 .4 -1 1q-.4 .7 -.4 1.4q0 1.1 1.1 2l-3.7 5.7l10.9 0zm-1.7 -17.6q-.5 0 -.9 .3q-.5 .2 -.7 .6q-.3 .5 -.3 1q0 .4 .3 .9q.2 .4 .7 .7q.4 .2 .9 .2q.5 0 .9 -.2q.5 -.3 .7 -.7q.3 -.5 .3 -.9q0 -.5 -.3 -1q-.2 -.4 -.7 -.6q-.4 -.3 -.9 -.3z" },
  N: { fill: "M17.9 11.5q.6 -.4 .6 -1q0 -.5 -.3 -.9q-.2 -.5 -.2 -.9q0 -.8 .9 -1.3q1.5 1.4 1.6 2.1q.1 .8 .1 1q0 .8 -.5 1l0 0q0 0 0 0q9 5.7 9.7 21.1l-16.2 0q-.3 -1 -.3 -2q0 -2.6 3.4 -5q3.4 -2.4 3.4 -4.3q0 -.1 0 -.2q-1.1 2.8 -3.1 2.8q0 0 -.1 0q-1.5 2.4 -3.3 2.4q0 0 -.1 0l.8 -1.7l-1.8 1.3q-1.9 -.5 -2.3 -1.9q1.4 -3.8 1.4 -7q0 -.4 0 -.9q.8 -1.8 2.5 -3.6q0 -.1 0 -.3q0 -.4 -.4 -.7q-.3 -.2 -.3 -.8q0 -.6 .3 -1.7q1.7 .5 2.7 2.5zm-4.4 4.3l0 .3q.1 .5 .2 .5l.4 0q1.1 0 1.1 -.9q0 -.5 .8 -1.3l-.1 0q-1.6 0 -2.3 1zm-1.8 7.5l0 .4q0 .5 .5 .5l.1 0q1.3 -.2 1.3 -1.1l-.2 -.6q-1 0 -1.7 .8zm8.4 -10.5l.8 1.5q6.3 4.6 6.4 17.4l1.3 0q-.7 -14.3 -8.5 -18.9z", line: "M18 11.5q.1 -.2 .1 -.4q0 -.3 -.2 -.7q-.2 -.3 -.2 -.6q0 -.8 1.2 -2.4q2 1.8 2 3.5q0 .4 -.1 .9q8.2 5.4 9 20.8l-16.3 0q-.3 -1 -.3 -2q0 -2.6 3.4 -5.1q3.3 -2.5 3.3 -3.6q0 0 0 -.1q-1.5 1.9 -2.5 2q-.8 2.4 -3.4 2.7l-.2 -.4l-.7 .5q-2.3 -.8 -2.9 -2.1q1.4 -4.2 1.4 -7.4q0 -.5 -.1 -1q.8 -1.8 2 -3.9q-.3 -.5 -.4 -.7q0 -.1 0 -.2q0 -.5 .5 -2.3q1.8 .5 2.7 2.5zm-4.4 4.6q.6 -1 2.2 -1l.1 0q-.7 .7 -.7 1.3q0 .8 -1.2 .8l-.3 0q-.2 0 -.3 -.5l0 -.2zm-.3 7.1l.2 .6q0 .9 -1.2 1.1l-.2 0q-.5 0 -.5 -.5l0 -.4q.7 -.8 1.7 -.8zm2.6 -11.4q-.6 -1.6 -1.8 -2.2q-.5 1 -.5 1.6q0 .5 .3 .7q.2 .3 .2 .6q0 .3 -.2 .5q-1 1.7 -1.7 3.3q.1 .8 .1 1.5q0 3.3 -1.3 6.6q.5 1.2 2.2 1.6l1.6 -1.2l-.6 1.3q2.3 -.2 2.8 -2.6q1.7 -.1 3.1 -3q.2 .5 .2 1q0 2 -3.2 4.3q-3.2 2.4 -3.2 4.5q0 .9 .2 1.7l14.7 0q-.7 -13.8 -9 -20.2q0 0 0 0l0 0q.5 -.2 .5 -.9q0 -.2 -.1 -.9q-.1 -.6 -1.4 -1.9q-.5 1.3 -.5 2q0 .3 .1 .6q.2 .2 .2 .6q0 .3 -.2 .5z" },
  P: { fill: "M9.9 32.6q-.2 -1 -.2 -2q0 -2.7 1.4 -5.1q1.4 -2.5 3.8 -3.8q.7 -.3 1.3 -.6q-.5 -.5 -.8 -1.1q-.7 -1.3 -.7 -2.7q0 -1.3 .7 -2.6q.7 -1.3 2 -2q.4 -.2 .9 -.4q-.4 -.3 -.7 -.8q-.3 -.7 -.3 -1.4q0 -.7 .3 -1.3q.4 -.7 1 -1q.7 -.4 1.4 -.4q.7 0 1.3 .4q.7 .3 1.1 1q.3 .6 .3 1.3q0 .7 -.3 1.4q-.3 .5 -.7 .8q.4 .2 .9 .4q1.3 .7 2 2q.7 1.3 .7 2.6q0 1.4 -.7 2.7q-.3 .6 -.8 1.1q.6 .3 1.2 .6q2.5 1.3 3.9 3.8q1.4 2.4 1.4 5.1q0 1 -.2 2z", line: "M20 20.9q.9 0 1.8 -.5q.8 -.4 1.3 -1.3q.5 -.8 .5 -1.8q0 -.9 -.5 -1.8q-.5 -.8 -1.3 -1.3q-.9 -.4 -1.8 -.4q-.9 0 -1.8 .4q-.8 .5 -1.3 1.3q-.5 .9 -.5 1.8q0 1 .5 1.8q.5 .9 1.3 1.3q.9 .5 1.8 .5zm-1 -10.8q0 .3 .1 .5q.2 .3 .4 .4q.2 .1 .5 .1q.3 0 .5 -.1q.2 -.1 .4 -.4q.1 -.2 .1 -.5q0 -.2 -.1 -.4q-.2 -.3 -.4 -.4q-.3 -.2 -.5 -.2q-.2 0 -.5 .2q-.2 .1 -.4 .4q-.1 .2 -.1 .4zm10.1 22.4l0 .1l-17.8 0l0 -.1l-1.4 .1q-.2 -1 -.2 -2q0 -2.7 1.4 -5.1q1.4 -2.5 3.8 -3.8q.7 -.3 1.3 -.6q-.5 -.5 -.8 -1.1q-.7 -1.3 -.7 -2.7q0 -1.3 .7 -2.6q.7 -1.3 2 -2q.4 -.2 .9 -.4q-.4 -.3 -.7 -.8q-.3 -.7 -.3 -1.4q0 -.7 .3 -1.3q.4 -.7 1 -1q.7 -.4 1.4 -.4q.7 0 1.3 .4q.7 .3 1.1 1q.3 .6 .3 1.3q0 .7 -.3 1.4q-.3 .5 -.7 .8q.4 .2 .9 .4q1.3 .7 2 2q.7 1.3 .7 2.6q0 1.4 -.7 2.7q-.3 .6 -.8 1.1q.6 .3 1.2 .6q2.5 1.3 3.9 3.8q1.4 2.4 1.4 5.1q0 1 -.2 2zm-.5 -2.2q-.1 -2.1 -1.2 -4q-1.1 -2 -3.2 -3.1q-2.1 -1.1 -4.2 -1.1q-2.2 0 -4.2 1.1q-2.1 1.1 -3.2 3.1q-1.1 1.9 -1.2 4z" },
};

const app = {
  info: null,
  state: null,        // the live game state from the server
  shown: null,        // the state drawn (live or review)
  review: null,       // action count under review, or null
  flip: false,
  selected: null,     // {l, t, sq}
  dests: new Map(),   // "l,t,sq" -> [move]
  ws: null,
  wsGame: null,
  vb: { x: 0, y: 0, w: 1000, h: 700 },
  // The camera: 'present' follows the present, 'fit' shows everything, 'free' stays where the
  // player put it (moved only by Go to present, Fit all or a click in the notation).
  cam: 'present',
  layoutKey: '',
  clockBase: null,
  analysis: null,     // {id, state, ws, info}: the analysis board, while analysing
  editor: null,       // the position editor's model, on #/editor
  pv: null,           // index of the best-line action previewed as arrows
  actionPresent: null, // {count, present}: the present when the action being built started
};

/** The state being played on: the analysis board's or the game's. */
function cur() { return app.analysis ? app.analysis.state : app.state; }
/** The API prefix of what is being played on. */
function base() { return app.analysis ? `/api/analysis/${app.analysis.id}` : `/api/games/${app.state.id}`; }

async function api(method, url, body) {
  // Hook (online.js): the seat token of the game the request is about.
  const opts = { method, headers: { ...(window.chess5dOnline?.headers(url, method) ?? {}) } };
  if (body !== undefined || method !== 'GET') opts.headers['Content-Type'] = 'application/json';
  if (body !== undefined) opts.body = JSON.stringify(body);
  const res = await fetch(url, opts);
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = { error: text }; }
  if (!res.ok) throw Object.assign(new Error((data && data.error) || `HTTP ${res.status}`), { status: res.status });
  window.chess5dOnline?.seen(url, method, data); // hook: a new game's seat is kept
  return data;
}

function esc(s) {
  return String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
}

function showError(msg) {
  const e = $('#error');
  if (!msg) { e.classList.add('hidden'); e.textContent = ''; return; }
  e.textContent = msg;
  e.classList.remove('hidden');
}

// ---------- routing ----------

function route() {
  const m = location.hash.match(/^#\/game\/([^/?]+)/);
  if (location.hash.startsWith('#/editor')) openEditor();
  else if (m) openGame(m[1]);
  else showHome();
}

/** Shows one of the pages (home, play, notfound). */
function showPage(id) {
  for (const p of ['home', 'play', 'notfound']) $(`#${p}`).classList.toggle('hidden', p !== id);
}
window.addEventListener('hashchange', route);

async function showHome() {
  closeWs();
  endAnalysis();
  app.state = null;
  app.editor = null;
  showPage('home');
  document.title = 'chess5d';
  await Promise.all([loadInfo(), refreshGames(), refreshPuzzles()]).catch((e) => console.warn(e));
}

async function loadInfo() {
  if (app.info) return;
  app.info = await api('GET', '/api/info');
  $('#ng-variant').innerHTML = app.info.variants.map((v) => `<option value="${esc(v.name)}">${esc(v.name)} (${esc(v.size)})</option>`).join('');
  for (const side of ['white', 'black']) {
    $(`#ng-${side}`).innerHTML = '<option value="human">Human</option>' +
      app.info.engines.map((e) => `<option value="engine:${esc(e)}">Engine: ${esc(e)}</option>`).join('');
    $(`#ng-${side}-bot`).innerHTML = app.info.bots.map((b) => `<option value="${esc(b)}" ${b === 'alphabeta' ? 'selected' : ''}>${esc(b)}</option>`).join('');
  }
  formStates();
}

/** The new-game form shows engine fields only for engine players, clock fields only with a clock. */
function formStates() {
  for (const side of ['white', 'black']) $(`#ng-${side}-engine`).classList.toggle('hidden', $(`#ng-${side}`).value === 'human');
  $('#ng-clock-fields').classList.toggle('hidden', !$('#ng-clock').checked);
}
for (const id of ['#ng-white', '#ng-black', '#ng-clock']) $(id).addEventListener('change', formStates);

async function refreshGames() {
  const { games } = await api('GET', '/api/games');
  $('#games-table tbody').innerHTML = games.map((g) => `<tr data-game="${g.id}">
    <td>${g.id}</td><td>${esc(g.white)}</td><td>${esc(g.black)}</td><td>${esc(g.puzzle ? 'Puzzle: ' + g.puzzle : g.variant)}</td>
    <td>${g.termination === 'puzzle failed' ? 'puzzle failed' : esc(g.result) + (g.termination ? ' <small>(' + esc(g.termination) + ')</small>' : '')}</td><td>${g.actions}</td><td>${esc(g.created)}</td>
    <td><button type="button" data-open="${g.id}" aria-label="Open game ${g.id}">${g.result === '*' && !g.termination ? 'Resume' : 'Open'}</button><button type="button" data-delete="${g.id}" aria-label="Delete game ${g.id}">Delete</button></td></tr>`).join('')
    || '<tr><td colspan="8">No saved games yet.</td></tr>';
}

async function refreshPuzzles() {
  const { puzzles } = await api('GET', '/api/puzzles');
  $('#puzzles-table tbody').innerHTML = puzzles.map((p) => `<tr data-puzzle="${esc(p.id)}">
    <td>${esc(p.name)}</td><td>${esc(p.to_move)}</td><td>${p.mate_in ?? '?'}</td><td class="status-${esc(p.status)}">${esc(p.status)}</td>
    <td><button type="button" data-puzzle-start="${esc(p.id)}" aria-label="Start puzzle ${esc(p.name)}">Start</button><button type="button" data-puzzle-export="${esc(p.id)}" aria-label="Export puzzle ${esc(p.name)}">Export</button></td></tr>`).join('');
}

$('#games-table').addEventListener('click', async (ev) => {
  const b = ev.target.closest('button');
  if (!b) return;
  if (b.dataset.open) location.hash = `#/game/${b.dataset.open}`;
  if (b.dataset.delete) {
    if (!confirm(`Delete game ${b.dataset.delete}? This cannot be undone.`)) return;
    try { await api('DELETE', `/api/games/${b.dataset.delete}`); } catch (e) { alert(e.message); }
    refreshGames();
  }
});

$('#puzzles-table').addEventListener('click', async (ev) => {
  const x = ev.target.closest('button[data-puzzle-export]');
  if (x) {
    const res = await fetch(`/api/puzzles/${encodeURIComponent(x.dataset.puzzleExport)}/pgn`);
    showExport('Export puzzle (5DPGN)', await res.text(), `puzzle-${x.dataset.puzzleExport}.5dpgn`);
    return;
  }
  const b = ev.target.closest('button[data-puzzle-start]');
  if (!b) return;
  const g = await api('POST', `/api/puzzles/${encodeURIComponent(b.dataset.puzzleStart)}`);
  location.hash = `#/game/${g.id}`;
});

function playerOf(side) {
  const v = $(`#ng-${side}`).value;
  if (v === 'human') return { type: 'human' };
  return { type: 'engine', engine: v.slice(7), bot: $(`#ng-${side}-bot`).value, movetime_ms: Number($(`#ng-${side}-ms`).value) || 1000 };
}

$('#new-game-form').addEventListener('submit', async (ev) => {
  ev.preventDefault();
  const body = { variant: $('#ng-variant').value, white: playerOf('white'), black: playerOf('black') };
  if ($('#ng-clock').checked) {
    body.clock = { initial_ms: Math.round(Number($('#ng-minutes').value) * 60000), increment_ms: Math.round(Number($('#ng-inc').value) * 1000) };
  }
  try {
    const g = await api('POST', '/api/games', body);
    location.hash = `#/game/${g.id}`;
  } catch (e) { alert(e.message); }
});

$('#btn-new').addEventListener('click', () => { location.hash = '#/'; showHome(); $('#ng-variant').focus(); });
$('#btn-games').addEventListener('click', () => { location.hash = '#/'; showHome(); });
$('#btn-puzzles').addEventListener('click', () => { location.hash = '#/'; showHome().then(() => $('#puzzles-table').scrollIntoView()); });

// ---------- import / export ----------

$('#btn-import').addEventListener('click', () => {
  $('#import-error').classList.add('hidden');
  $('#import-dialog').showModal();
  $('#import-text').focus();
});
$('#import-cancel').addEventListener('click', () => $('#import-dialog').close());
$('#import-load').addEventListener('click', async () => {
  const text = $('#import-text').value;
  try {
    const g = await api('POST', '/api/games', { import: text });
    $('#import-dialog').close();
    location.hash = `#/game/${g.id}`;
  } catch (e) {
    const el = $('#import-error');
    el.textContent = e.message;
    el.classList.remove('hidden');
  }
});

function showExport(title, text, file) {
  $('#export-title').textContent = title;
  $('#export-text').value = text;
  app.exportFile = file;
  $('#export-dialog').showModal();
}
$('#btn-export').addEventListener('click', () => {
  if (!app.state) return;
  showExport('Export (5DPGN)', app.state.pgn, `chess5d-game-${app.state.id}.5dpgn`);
});
$('#export-close').addEventListener('click', () => $('#export-dialog').close());
$('#export-copy').addEventListener('click', async () => {
  const t = $('#export-text');
  try { await navigator.clipboard.writeText(t.value); } catch { t.select(); document.execCommand('copy'); }
  $('#export-copy').textContent = 'Copied';
  setTimeout(() => { $('#export-copy').textContent = 'Copy'; }, 1200);
});
$('#export-download').addEventListener('click', () => {
  const blob = new Blob([$('#export-text').value], { type: 'text/plain' });
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = app.exportFile || 'chess5d.5dpgn';
  document.body.appendChild(a);
  a.click();
  a.remove();
});

// ---------- game ----------

async function openGame(idText) {
  const id = /^\d+$/.test(idText) ? Number(idText) : null;
  app.editor = null;
  const fresh = !app.state || app.state.id !== id;
  if (fresh) {
    endAnalysis();
    closeWs();
    app.state = null;
    app.shown = null;
    app.review = null;
    app.cam = 'present';
    app.layoutKey = '';
    app.selected = null;
    app.dests.clear();
    resetDrawing();
  }
  showError(null);
  // An invite link being opened: the server's answer (the seat, or why not) comes first.
  const joining = window.chess5dOnline?.joining;
  if (joining) { window.chess5dOnline.joining = null; await joining; }
  let s;
  try {
    if (id === null) throw Object.assign(new Error(`no game with id '${idText}'`), { status: 404 });
    s = await api('GET', `/api/games/${id}`);
  } catch (e) {
    if (e.status === 404) {
      // Not an empty playable page: say so, with the way home.
      showPage('notfound');
      document.title = 'chess5d: no such game';
      $('#notfound-text').textContent = `There is no game ${idText} on this server (it may have been deleted).`;
      return;
    }
    showPage('play');
    showError(e.message);
    return;
  }
  showPage('play');
  // The player of Black sees the boards from Black's side (the flip button turns them back).
  if (fresh) app.flip = playsBlackOnly(s);
  $('#editor-panel').classList.add('hidden');
  $('#game-panel').classList.remove('hidden');
  setState(s);
  connectWs(id);
}

function closeWs() {
  app.wsGame = null;
  if (app.ws) { app.ws.onclose = null; app.ws.close(); app.ws = null; }
}

function connectWs(id) {
  if (app.wsGame === id && app.ws) return;
  closeWs();
  app.wsGame = id;
  const proto = location.protocol === 'https:' ? 'wss' : 'ws';
  const ws = new WebSocket(`${proto}://${location.host}/api/games/${id}/ws`);
  app.ws = ws;
  ws.onopen = () => window.chess5dOnline?.wsOpen(ws, id); // hook: say which seat is connected
  ws.onmessage = (m) => {
    const data = JSON.parse(m.data);
    if (data.deleted) { location.hash = '#/'; return; }
    if (data.id === app.wsGame) setState(data);
  };
  ws.onclose = () => {
    app.ws = null;
    if (app.wsGame === id) setTimeout(() => { if (app.wsGame === id) { app.wsGame = null; connectWs(id); } }, 1000);
  };
}

function setState(s) {
  if (app.state && app.state.id === s.id && s.version < app.state.version && s.action_count <= app.state.action_count) return;
  const changed = !app.state || app.state.id !== s.id || app.state.version !== s.version;
  app.state = s;
  app.clockBase = { t: performance.now(), white: s.clock?.white_ms, black: s.clock?.black_ms };
  if (app.analysis) { renderSide(); return; }
  // The same version again (the WebSocket echoing an answer already drawn): only the side panel.
  if (!changed && app.shown && app.shown.id === s.id) {
    if (app.review === null) app.shown = s;
    renderSide();
    return;
  }
  if (changed) { app.selected = null; app.dests.clear(); }
  if (app.review !== null) {
    if (app.review >= s.action_count) app.review = null; else { renderSide(); return; }
  }
  app.shown = s;
  render();
}

async function setReview(n) {
  const s = app.state;
  if (!s || app.analysis) return;
  if (n === null || n >= s.action_count) {
    app.review = null;
    app.shown = s;
  } else {
    n = Math.max(0, n);
    app.review = n;
    app.shown = await api('GET', `/api/games/${s.id}?at=${n}`);
  }
  app.selected = null;
  app.dests.clear();
  render();
  // The player asked for this action: show the boards it touched (live: the present).
  if (app.review === null) { app.cam = 'present'; camera(true); } else showTouched();
}

// ---------- drawing ----------
//
// The multiverse is drawn for speed with hundreds of boards:
// - only the boards in (or near) the visible part of the world are in the DOM (culling, redone
//   after every pan or zoom, at most once per animation frame);
// - each board is one <g> built from a string and kept while its content is unchanged: a new
//   state, a selection or a pan only rebuilds the boards whose signature (pieces, flags,
//   highlights, level of detail) changed;
// - pieces are drawn as a few <path>s per board (every piece of a colour in one path) from the
//   glyph outlines above, not as one text element per piece;
// - the level of detail follows the size of a square on screen: 'near' boards (squares of 24
//   pixels or more, or at most 16 boards in view) have one rect per square, coordinates and one
//   (empty) marker per piece for scripts; 'mid' boards a checkerboard pattern and the piece
//   paths; 'far' boards (squares under 5 pixels and over 40 boards in view) a flat fill and a
//   dot per piece. Highlighted squares are rects at every level.
// Clicks are found from the pointer's position (hitTest), so they work at every level.

const FILES = 'abcdefghijklmnopqrstuvwxyz';
const NEAR_PX = 24;   // a square at least this many pixels wide: full detail (coordinates readable)
const FAR_PX = 5;     // below this: flat boards with dots
const FEW_NEAR = 16;   // with this many boards in view or fewer, always full detail
const FEW_FAR = 40;    // with this many or fewer, never dots

const draw = {
  cache: new Map(),   // "l,t" -> { sig, el }
  shown: new Map(),   // "l,t" -> el currently in the layer
  scheduled: false,
  hl: new Map(),      // "l,t" -> Map(sq -> { cls, dest })
  boards: new Map(),  // "l,t" -> board of app.shown
  piecesKey: new Map(), // "l,t" -> string of its pieces
  bgKey: '',
  lod: 'near',
};

function layout(s) {
  const w = s.size.w * SQ, h = s.size.h * SQ;
  const gx = SQ * 1.5, gy = SQ * 1.5;
  let minT = Infinity, maxT = -Infinity, minL = Infinity, maxL = -Infinity;
  for (const b of s.boards) { minT = Math.min(minT, b.t); maxT = Math.max(maxT, b.t); minL = Math.min(minL, b.l); maxL = Math.max(maxL, b.l); }
  const col = (t) => (t - minT) * (w + gx);
  const row = (l) => (app.flip ? (maxL - l) : (l - minL)) * (h + gy);
  return { w, h, gx, gy, minT, maxT, minL, maxL, col, row, left: 80 };
}

function squareXY(s, sq) {
  const x = sq.charCodeAt(0) - 97, y = Number(sq.slice(1)) - 1;
  return app.flip ? [(s.size.w - 1 - x) * SQ, y * SQ] : [x * SQ, (s.size.h - 1 - y) * SQ];
}

function existing(s, c) {
  // A coordinate on a board that does not exist yet (e.g. the board a check would come from
  // after a pass) is drawn on the latest board of its timeline.
  if (draw.boards.has(`${c.l},${c.t}`)) return c;
  const tl = s.timelines.find((t) => t.l === c.l);
  return tl && c.t > tl.end ? { ...c, t: tl.end } : c;
}

function center(s, L, c) {
  c = existing(s, c);
  const [x, y] = squareXY(s, c.sq);
  return [L.left + L.col(c.t) + x + SQ / 2, L.row(c.l) + y + SQ / 2];
}

function arrow(s, L, m, cls, marker) {
  const [x1, y1] = center(s, L, m.from), [x2, y2] = center(s, L, m.to);
  if (m.from.l === m.to.l && m.from.t === m.to.t) {
    return `<path class="arrow ${cls}" d="M${x1} ${y1} L${x2} ${y2}" marker-end="url(#${marker})"/>`;
  }
  const mx = (x1 + x2) / 2, my = (y1 + y2) / 2;
  const dx = x2 - x1, dy = y2 - y1, len = Math.hypot(dx, dy) || 1;
  const bend = Math.min(80, len * 0.25);
  const cx = mx - (dy / len) * bend, cy = my + (dx / len) * bend;
  return `<path class="arrow ${cls}" d="M${x1} ${y1} Q${cx} ${cy} ${x2} ${y2}" marker-end="url(#${marker})"/>`;
}

/** The path of a piece glyph placed on the square whose top-left corner is (x, y). */
function glyphAt(d, x, y) {
  const m = d.match(/^M([-\d.]+) ([-\d.]+)/);
  return `M${(x + Number(m[1])).toFixed(1)} ${(y + Number(m[2])).toFixed(1)}${d.slice(m[0].length)}`;
}
const GLYPH_HEAD = {};
for (const [k, v] of Object.entries(PIECE_PATHS)) {
  for (const part of ['fill', 'line']) {
    const m = v[part].match(/^M([-\d.]+) ([-\d.]+)/);
    GLYPH_HEAD[k + part] = { x: Number(m[1]), y: Number(m[2]), rest: v[part].slice(m[0].length) };
  }
}
function glyph(p, part, x, y) {
  const g = GLYPH_HEAD[p + part];
  return `M${Math.round((x + g.x) * 10) / 10} ${Math.round((y + g.y) * 10) / 10}${g.rest}`;
}

/** The SVG markup of one board at a level of detail. */
function boardMarkup(s, b, L, lod, hl, inactive) {
  const x = L.left + L.col(b.t), y = L.row(b.l);
  const out = [`<g class="board" data-l="${esc(b.label)}" data-t="${b.turn}" data-color="${b.color}" data-li="${b.l}" data-ti="${b.t}" data-playable="${b.playable}" data-mandatory="${b.mandatory}" data-lod="${lod}" transform="translate(${x} ${y})">`];
  // The outline has the colour to move on the board, thick when playable; a mandatory board
  // (one that must be played before Submit) gets a dashed accent frame around it.
  const sw = b.playable ? 9 : 3;
  out.push(`<rect class="board-outline ${b.color}" x="${-sw / 2 - 1}" y="${-sw / 2 - 1}" width="${L.w + sw + 2}" height="${L.h + sw + 2}" stroke-width="${sw}" rx="3"/>`);
  if (b.mandatory) out.push(`<rect class="board-mandatory" x="-13" y="-13" width="${L.w + 26}" height="${L.h + 26}" rx="7"/>`);
  const W = s.size.w, H = s.size.h;
  if (lod === 'near') {
    // The colours come from the pattern; the square rects are unpainted (clicks and hooks) but
    // for the highlighted ones.
    out.push(`<rect width="${L.w}" height="${L.h}" fill="url(#chk)"/>`);
    for (let yy = 0; yy < H; yy++) {
      for (let xx = 0; xx < W; xx++) {
        const name = FILES[xx] + (yy + 1);
        const h = hl && hl.get(name);
        const [sx, sy] = squareXY(s, name);
        out.push(`<rect class="sq ${(xx + yy) % 2 === 0 ? 'sq-dark' : 'sq-light'}${h ? ' ' + h.cls : ' bare'}" data-square="${name}"${h && h.dest ? ` data-dest="${h.dest}"` : ''} x="${sx}" y="${sy}" width="${SQ}" height="${SQ}"/>`);
      }
    }
  } else {
    out.push(lod === 'far' ? `<rect class="far-fill" width="${L.w}" height="${L.h}"/>` : `<rect width="${L.w}" height="${L.h}" fill="url(#chk)"/>`);
    if (hl) {
      for (const [name, h] of hl) {
        const [sx, sy] = squareXY(s, name);
        out.push(`<rect class="sq ${h.cls}" data-square="${name}"${h.dest ? ` data-dest="${h.dest}"` : ''} x="${sx}" y="${sy}" width="${SQ}" height="${SQ}"/>`);
      }
    }
  }
  // Pieces: every piece of a colour in one path (dots when far), other roles one element each.
  const paths = { whiteFill: [], whiteLine: [], blackFill: [] };
  const extra = [];
  for (const p of b.pieces) {
    const [sx, sy] = squareXY(s, p.sq);
    if (lod === 'far') {
      (p.c === 'white' ? paths.whiteFill : paths.blackFill).push(`M${sx + 8} ${sy + 8}h24v24h-24z`);
    } else if (PIECE_PATHS[p.p]) {
      if (p.c === 'white') { paths.whiteFill.push(glyph(p.p, 'fill', sx, sy)); paths.whiteLine.push(glyph(p.p, 'line', sx, sy)); }
      else paths.blackFill.push(glyph(p.p, 'fill', sx, sy));
    } else {
      const fill = p.c === 'white' ? '#fbfbf5' : '#15151a', stroke = p.c === 'white' ? '#222' : '#ddd';
      extra.push(`<circle cx="${sx + SQ / 2}" cy="${sy + SQ / 2}" r="${SQ * 0.38}" fill="${fill}" stroke="${stroke}" stroke-width="2"/><text class="fairy" x="${sx + SQ / 2}" y="${sy + SQ * 0.68}" fill="${stroke}">${esc(p.p)}</text>`);
    }
    if (lod === 'near') extra.push(`<g class="piece" data-piece="${esc(p.p)}" data-piece-color="${p.c}" data-at="${p.sq}"/>`);
  }
  if (paths.whiteFill.length) out.push(`<path class="pc-white${lod === 'far' ? ' dot' : ''}" d="${paths.whiteFill.join('')}"/>`);
  if (paths.whiteLine.length) out.push(`<path class="pc-white-line" d="${paths.whiteLine.join('')}"/>`);
  if (paths.blackFill.length) out.push(`<path class="pc-black${lod === 'far' ? ' dot' : ''}" d="${paths.blackFill.join('')}"/>`);
  out.push(...extra);
  if (lod === 'near') {
    // Coordinates inside the edge squares (files along the bottom, ranks along the left side).
    const bottom = app.flip ? H - 1 : 0, left = app.flip ? W - 1 : 0;
    for (let xx = 0; xx < W; xx++) {
      const [sx] = squareXY(s, FILES[xx] + '1');
      out.push(`<text class="coord ${(xx + bottom) % 2 === 0 ? 'on-dark' : 'on-light'}" x="${sx + SQ - 2}" y="${L.h - 2}" text-anchor="end">${FILES[xx]}</text>`);
    }
    for (let yy = 0; yy < H; yy++) {
      const [, sy] = squareXY(s, FILES[left] + (yy + 1));
      out.push(`<text class="coord ${(left + yy) % 2 === 0 ? 'on-dark' : 'on-light'}" x="2" y="${sy + 14}">${yy + 1}</text>`);
    }
  }
  if (lod !== 'far') out.push(`<text class="board-label" x="${L.w}" y="-${b.mandatory ? 21 : b.playable ? 12 : 8}" text-anchor="end">(${esc(b.label)}T${b.turn})</text>`);
  if (inactive) out.push(`<rect class="inactive-veil" x="-8" y="-8" width="${L.w + 16}" height="${L.h + 16}"/>`);
  out.push('</g>');
  return out.join('');
}

/** Redraws everything for a new state (or flip): layout, background, arrows, then the boards. */
function render() {
  const s = app.shown;
  if (!s) return;
  const L = layout(s);
  app.layout = L;
  draw.boards = new Map(s.boards.map((b) => [`${b.l},${b.t}`, b]));
  draw.piecesKey = new Map(s.boards.map((b) => [`${b.l},${b.t}`, b.pieces.map((p) => p.sq + p.p + p.c[0]).join('')]));
  draw.inactive = new Set(s.timelines.filter((t) => !t.active).map((t) => t.l));
  // The checkerboard pattern: a1 is dark (bottom-left), flipped or not.
  const a1dark = app.flip ? (s.size.w - 1) % 2 === 0 : (s.size.h - 1) % 2 === 0;
  const parts = [`<defs><pattern id="chk" width="${2 * SQ}" height="${2 * SQ}" patternUnits="userSpaceOnUse">
    <rect width="${2 * SQ}" height="${2 * SQ}" class="sq-light"/>
    <rect x="${a1dark ? 0 : SQ}" y="0" width="${SQ}" height="${SQ}" class="sq-dark"/>
    <rect x="${a1dark ? SQ : 0}" y="${SQ}" width="${SQ}" height="${SQ}" class="sq-dark"/></pattern></defs>`];
  // Timeline arrows, as in the game: purple along active timelines, the colour of the player
  // who made it along inactive ones (White's timelines are the positive ones), from the first
  // board (or the branch point) to an arrowhead past the last board.
  const present = presentOf(s);
  for (const tl of s.timelines) {
    const y = L.row(tl.l) + L.h / 2;
    const x1 = L.left + L.col(tl.start), x2 = L.left + L.col(tl.end) + L.w + L.gx * 0.55;
    const cls = tl.active ? 'active' : tl.l < 0 || (s.even && tl.label.startsWith('-')) ? 'black' : 'white';
    parts.push(`<path class="tl-line ${cls}" d="M${x1} ${y} L${x2} ${y}" marker-end="url(#tl-${cls})"/>`);
    if (tl.origin) {
      const ox = L.left + L.col(tl.origin.t) + L.w / 2, oy = L.row(tl.origin.l) + L.h / 2;
      parts.push(`<path class="tl-line ${cls}" fill="none" d="M${ox} ${oy} C${ox + L.w} ${oy} ${x1 - L.w} ${y} ${x1} ${y}"/>`);
    }
    parts.push(`<text class="tl-label ${tl.active ? '' : 'inactive'}" x="${L.left + L.col(tl.start) - 22}" y="${y + 9}" text-anchor="end">L${esc(tl.label)}</text>`);
  }
  // The present: a line in the colour of the side to move across the whole multiverse.
  const rows = L.maxL - L.minL + 1;
  const px = L.left + L.col(present.t) - L.gx / 3;
  parts.push(`<rect class="present-line ${present.color}" x="${px}" y="${-L.gy / 2}" width="${L.w + (2 * L.gx) / 3}" height="${rows * (L.h + L.gy)}" rx="10"/>`);
  // Turn labels.
  for (let t = L.minT; t <= L.maxT; t++) {
    parts.push(`<text class="turn-label" x="${L.left + L.col(t) + L.w / 2}" y="${-L.gy / 2 - 8}" text-anchor="middle">T${Math.floor(t / 2)}${t % 2 ? 'b' : 'w'}</text>`);
  }
  $('#bg-layer').innerHTML = parts.join('');
  const arrows = [];
  for (const m of s.last_action) arrows.push(arrow(s, L, m, 'last', 'arrow-last'));
  if (app.pv !== null && app.analysis && app.analysis.info) {
    // The best line previewed: its actions up to the one clicked (moves on boards that do not
    // exist yet are drawn where they will be).
    const pv = app.analysis.info.pv || [];
    for (let i = 0; i <= app.pv && i < pv.length; i++) {
      for (const m of pv[i].moves) arrows.push(arrow(s, L, m, `pv pv-${pv[i].color}`, `arrow-pv-${pv[i].color}`));
    }
  }
  for (const m of s.pending) arrows.push(arrow(s, L, m, 'pending', 'arrow-pending'));
  // Every check (at a mate there may be several; one arrow would make a defence look possible).
  for (const c of checksOf(s)) arrows.push(arrow(s, L, { from: c.from, to: c.to }, 'check', 'arrow-check'));
  $('#arrow-layer').innerHTML = arrows.join('');
  app.bounds = { x: -20, y: -L.gy - 10, w: L.left + L.col(L.maxT) + L.w + L.gx + 20, h: rows * (L.h + L.gy) + L.gy };
  const first = !app.layoutKey;
  const key = `${s.id}:${L.minT}:${L.maxT}:${L.minL}:${L.maxL}:${app.flip}:${present.t}`;
  const moved = key !== app.layoutKey;
  app.layoutKey = key;
  computeHighlights();
  // The camera follows the present (or keeps everything in view) only if the player left it
  // there; a view the player moved stays put. The first view of a game is not animated.
  if (first) { camera(false); } else if (moved && app.cam !== 'free') camera(true);
  drawMinimap(s, L);
  drawBoards();
  renderSide();
}

// ---------- overlays: timeline labels that stay in view, the overview ----------

/** The overview (minimap), for multiverses too big to read whole: every board as a small
 * rectangle (the present's column marked), the part in view framed; a click goes there. */
function drawMinimap(s, L) {
  const mm = $('#minimap');
  const many = s.timelines.length > 6 || (L.maxT - L.minT) > 24;
  mm.classList.toggle('hidden', !many);
  if (!many) return;
  const b = app.bounds;
  mm.setAttribute('viewBox', `${b.x} ${b.y} ${b.w} ${b.h}`);
  const key = `${app.layoutKey}|${s.boards.length}`;
  if (mm.dataset.key === key) return;
  mm.dataset.key = key;
  const present = presentOf(s).t;
  $('#minimap-boards').innerHTML = s.boards.map((bd) => `<rect class="mm-board ${bd.color}${bd.t === present ? ' present' : ''}" x="${L.left + L.col(bd.t)}" y="${L.row(bd.l)}" width="${L.w}" height="${L.h}"/>`).join('');
}

/** Keeps the overlays in step with the camera: the frame of the overview, and the labels of
 * the timelines in view along the left edge, where their own labels (at each timeline's first
 * board) have scrolled out of sight. */
function updateOverlays() {
  const s = app.shown, L = app.layout, v = app.vb;
  const rail = $('#tl-rail');
  if (!s || !L || !v) { rail.innerHTML = ''; return; }
  const { w: vw, h: vh } = viewSize();
  const scale = vw / v.w;
  const out = [];
  for (const tl of s.timelines) {
    const y = (L.row(tl.l) + L.h / 2 - v.y) * scale;
    if (y < 48 || y > vh - 8) continue; // (not under the view tools)
    // Its own label is in view: no need for a second one.
    const own = (L.left + L.col(tl.start) - 22 - v.x) * scale;
    if (own > 40 && own < vw) continue;
    out.push([tl, Math.round(y - 8)]);
  }
  // Built as elements (the page's CSP allows no inline style attribute).
  const key = out.map(([tl, y]) => `${tl.l}:${y}:${tl.active}`).join();
  if (rail.dataset.key === key) return updateMinimapFrame(v);
  rail.dataset.key = key;
  rail.replaceChildren(...out.map(([tl, y]) => {
    const e = document.createElement('span');
    e.className = `rail-label${tl.active ? '' : ' inactive'}`;
    e.dataset.rail = tl.l;
    e.textContent = `L${tl.label}`;
    e.style.top = `${y}px`;
    return e;
  }));
  updateMinimapFrame(v);
}

function updateMinimapFrame(v) {
  const f = $('#minimap-view');
  f.setAttribute('x', v.x); f.setAttribute('y', v.y); f.setAttribute('width', v.w); f.setAttribute('height', v.h);
}

$('#minimap').addEventListener('click', (ev) => {
  const mm = $('#minimap');
  const pt = mm.createSVGPoint();
  pt.x = ev.clientX; pt.y = ev.clientY;
  const w = pt.matrixTransform(mm.getScreenCTM().inverse());
  const px = Math.max(MIN_PX, (viewSize().w / app.vb.w) * SQ);
  app.cam = 'free';
  moveTo(boxAt(w.x, w.y, px));
});

/** The present as the player knows it: while an action is being built, the present it started
 * in (the boards the pending moves made do not count). */
/** Whether this browser plays Black alone in `s`: its seat holds only Black, or (no seats) a
 * human plays Black against an engine. */
function playsBlackOnly(s) {
  const sides = window.chess5dOnline?.sides?.(s.id);
  if (sides && sides.length) return sides.length === 1 && sides[0] === 'black';
  return !!(s.players.white.engine && !s.players.black.engine);
}

/** Where the present is, said so that it cannot read as a contradiction of who is to move: a
 * jump back in the action being built moves it to the other side's half-turn. */
function presentText(st) {
  const p = presentOf(st);
  if (p.color === st.to_move || st.result) return `The present is turn ${p.turn}.`;
  return `This action takes the present back to turn ${p.turn}, where ${cap(p.color)} plays next.`;
}

/** An action's text, summarised past four moves (a 40-move action would fill the panel). */
function shortAction(text) {
  const moves = String(text).split(' ');
  return moves.length <= 4 ? text : `${moves.slice(0, 3).join(" ")} … and ${moves.length - 3} more moves`;
}

/** The checks to draw: every one the server lists, else the one it names. */
function checksOf(s) {
  if (s.checks && s.checks.length) return s.checks;
  return s.check ? [s.check] : [];
}

function presentOf(s) {
  if (!s.pending || !s.pending.length) return s.present;
  const made = new Set();
  for (const m of s.pending) { made.add(`${m.from.l},${m.from.t + 1}`); made.add(`${m.to.l},${m.to.t + 1}`); }
  const ends = new Map();
  for (const b of s.boards) {
    if (made.has(`${b.l},${b.t}`)) continue;
    ends.set(b.l, Math.max(ends.get(b.l) ?? -Infinity, b.t));
  }
  let t = Infinity;
  for (const tl of s.timelines) if (tl.active && ends.has(tl.l)) t = Math.min(t, ends.get(tl.l));
  if (!Number.isFinite(t)) return s.present;
  return { t, turn: Math.floor(t / 2), color: t % 2 ? 'black' : 'white' };
}

/** The highlighted squares of each board: check, last action, pending moves, selection. */
function computeHighlights() {
  const s = app.shown;
  const hl = new Map();
  const put = (c, cls, dest) => {
    const k = `${c.l},${c.t}`;
    if (!hl.has(k)) hl.set(k, new Map());
    const m = hl.get(k);
    const old = m.get(c.sq);
    // selection and destinations win over check, which wins over the last action
    if (!old || cls !== 'last-to') m.set(c.sq, { cls, dest });
  };
  if (s) {
    for (const m of s.last_action.concat(s.pending)) { put(m.from, 'last-to'); put(m.to, 'last-to'); }
    for (const c of checksOf(s)) { put(existing(s, c.from), 'check-from'); put(existing(s, c.to), 'check-royal'); }
  }
  if (app.selected) put(app.selected, 'selected');
  for (const [key, moves] of app.dests) {
    const [l, t, sq] = key.split(',');
    put({ l: Number(l), t: Number(t), sq }, moves[0].capture ? 'dest-cap' : 'dest', moves[0].kind);
  }
  draw.hl = hl;
}

function applyHighlights() {
  computeHighlights();
  drawBoards();
}

/** The size of the view in pixels, read once and then kept up to date by a ResizeObserver (so
 * that drawing never forces a layout to read it). */
function viewSize() {
  if (!app.viewSize || !app.viewSize.w) {
    const svg = $('#view');
    app.viewSize = { w: svg.clientWidth, h: svg.clientHeight };
    if (!app.viewObserver) {
      app.viewObserver = new ResizeObserver((entries) => {
        const r = entries[entries.length - 1].contentRect;
        const was = app.viewSize;
        app.viewSize = { w: r.width, h: r.height };
        if (!r.width || (was && was.w === r.width && was.h === r.height)) return;
        camera(false);
      });
      app.viewObserver.observe(svg);
    }
  }
  return { w: app.viewSize.w || 1000, h: app.viewSize.h || 700 };
}

/** The world rectangle visible in the view, and the scale (pixels per world unit). */
function visibleRect() {
  const { w: cw, h: ch } = viewSize();
  const v = app.vb;
  const scale = Math.min(cw / v.w, ch / v.h);
  const w = cw / scale, h = ch / scale;
  return { x: v.x - (w - v.w) / 2, y: v.y - (h - v.h) / 2, w, h, scale };
}

/** Adds, keeps, rebuilds or removes board groups for the current view; cheap when nothing changed. */
function drawBoards() {
  const s = app.shown, L = app.layout;
  if (!s || !L) return;
  const layer = $('#board-layer');
  const r = visibleRect();
  const mx = r.w * 0.15, my = r.h * 0.15;
  const x0 = r.x - mx, x1 = r.x + r.w + mx, y0 = r.y - my, y1 = r.y + r.h + my;
  const inView = [];
  for (const b of s.boards) {
    const bx = L.left + L.col(b.t), by = L.row(b.l);
    if (bx + L.w + 10 < x0 || bx - 10 > x1 || by + L.h + 10 < y0 || by - 10 > y1) continue;
    inView.push(b);
  }
  const sp = SQ * r.scale;
  const n = inView.length;
  const lod = n <= FEW_NEAR || sp >= NEAR_PX ? 'near' : sp >= FAR_PX || n <= FEW_FAR ? 'mid' : 'far';
  draw.lod = lod;
  const want = new Set();
  const fresh = [];
  const freshKeys = new Set();
  for (const b of inView) {
    const k = `${b.l},${b.t}`;
    want.add(k);
    const hl = draw.hl.get(k);
    const inactive = draw.inactive.has(b.l);
    const sig = `${lod}|${app.flip}|${b.label}|${b.turn}|${b.color}|${b.playable}|${b.mandatory}|${inactive}|${L.left + L.col(b.t)},${L.row(b.l)}|${draw.piecesKey.get(k)}|${hl ? [...hl].map(([q, h]) => q + h.cls + (h.dest || '')).join() : ''}`;
    const c = draw.cache.get(k);
    if (c && c.sig === sig) {
      if (draw.shown.get(k) !== c.el) { fresh.push([k, c.el]); freshKeys.add(k); }
      continue;
    }
    fresh.push([k, null, sig, boardMarkup(s, b, L, lod, hl, inactive)]);
    freshKeys.add(k);
  }
  for (const [k, el] of draw.shown) {
    if (!want.has(k) || freshKeys.has(k)) { el.remove(); draw.shown.delete(k); }
  }
  const build = fresh.filter((f) => !f[1]);
  if (build.length) {
    const tmp = document.createElementNS(SVGNS, 'g');
    tmp.innerHTML = build.map((f) => f[3]).join('');
    const els = [...tmp.children];
    build.forEach((f, i) => { f[1] = els[i]; draw.cache.set(f[0], { sig: f[2], el: els[i] }); });
  }
  if (fresh.length) {
    const frag = document.createDocumentFragment();
    for (const [k, el] of fresh) { frag.appendChild(el); draw.shown.set(k, el); }
    layer.appendChild(frag);
  }
  // Forget cached boards that no longer exist (another game, review of an earlier position).
  if (draw.cache.size > 2 * s.boards.length + 200) {
    for (const k of draw.cache.keys()) if (!draw.boards.has(k) && !draw.shown.has(k)) draw.cache.delete(k);
  }
}

/** Applies the view box and redraws the boards at the next animation frame (once per frame). */
/** Applies the view box now (inside an animation frame: what is shown is what clicks hit). */
function applyViewBox() {
  const v = app.vb;
  $('#view').setAttribute('viewBox', `${v.x} ${v.y} ${v.w} ${v.h}`);
  drawBoards();
}

function setViewBox() {
  if (draw.scheduled) return;
  draw.scheduled = true;
  requestAnimationFrame(() => {
    draw.scheduled = false;
    const v = app.vb;
    $('#view').setAttribute('viewBox', `${v.x} ${v.y} ${v.w} ${v.h}`);
    drawBoards();
    updateOverlays();
  });
}

function resetDrawing() {
  for (const el of draw.shown.values()) el.remove();
  draw.shown.clear();
  draw.cache.clear();
}

// ---------- camera ----------

const MIN_PX = 28;   // the smallest square (pixels) of the default views: labels stay readable
const MAX_PX = 64;   // and the largest (one board does not fill the screen)
const REVIEW_PX = 44; // the largest when showing an action's boards (some context around them)

/** The view box showing the world rectangle r (plus a margin), keeping the aspect ratio. */
function boxAround(r, margin = 0.04) {
  const ar = viewSize().w / viewSize().h;
  let { x, y, w, h } = r;
  x -= w * margin; y -= h * margin; w *= 1 + 2 * margin; h *= 1 + 2 * margin;
  if (w / h < ar) { const nw = h * ar; x -= (nw - w) / 2; w = nw; } else { const nh = w / ar; y -= (nh - h) / 2; h = nh; }
  return { x, y, w, h };
}

/** The view box centred on (cx, cy) where a square is px pixels. */
function boxAt(cx, cy, px) {
  const { w: vw, h: vh } = viewSize();
  const scale = px / SQ, w = vw / scale, h = vh / scale;
  return { x: cx - w / 2, y: cy - h / 2, w, h };
}

function fitView() { return app.bounds ? boxAround(app.bounds, 0.02) : app.vb; }

/** The default view of a position: all of it if it is small enough to be readable whole; else
 * the boards to play (the present column up to the latest board of every active timeline, with
 * up to two columns before the present for context) if their
 * squares can be at least MIN_PX; otherwise the boards to play around the active timeline
 * nearest to timeline 0, at MIN_PX. */
function presentView(s = app.shown) {
  const L = app.layout;
  if (!s || !L) return app.vb;
  const { w: vw, h: vh } = viewSize();
  const t = presentOf(s).t;
  const tls = s.timelines.filter((tl) => tl.active);
  if (!tls.length) tls.push(...s.timelines);
  const rows = tls.map((tl) => L.row(tl.l));
  const top = Math.min(...rows) - L.gy * 0.7, bottom = Math.max(...rows) + L.h + L.gy * 0.5;
  const last = Math.max(t, ...tls.map((tl) => tl.end));
  const right = L.left + L.col(last) + L.w + L.gx * 0.8;
  const xAt = (tt) => L.left + L.col(tt) - L.gx * 0.6;
  const fitPx = (left) => Math.min(vw / (right - left), vh / (bottom - top)) * SQ;
  // A small multiverse is shown whole when it is readable that way.
  const all = fitView();
  const allPx = (SQ * vw) / all.w;
  if (allPx >= MIN_PX + 4 && t - L.minT <= 6) return allPx <= MAX_PX ? all : boxAt(all.x + all.w / 2, all.y + all.h / 2, MAX_PX);
  for (let first = Math.max(L.minT, t - 2); first <= t; first++) {
    const left = xAt(first), px = Math.min(MAX_PX, fitPx(left));
    if (px >= MIN_PX) {
      // Boards to the right of the view's centre when there is room: the past is to the left.
      const w = vw / (px / SQ);
      return boxAt(Math.max((left + right) / 2, right - w / 2), (top + bottom) / 2, px);
    }
  }
  // Too many timelines for one readable view: the active timeline nearest timeline 0.
  // Whole rows: as many as fit, around that timeline; across, its board to play (or its board at
  // the present).
  const toPlay = s.boards.filter((b) => b.mandatory || b.playable);
  const pick = toPlay.length ? toPlay.reduce((a, b) => (Math.abs(b.l) < Math.abs(a.l) ? b : a), toPlay[0]) : null;
  const near = pick ? tls.find((tl) => tl.l === pick.l) || tls[0] : tls.reduce((a, tl) => (Math.abs(tl.l) < Math.abs(a.l) ? tl : a), tls[0]);
  const sorted = [...new Set(rows)].sort((a, b) => a - b);
  const worldH = vh / (MIN_PX / SQ), k = Math.max(1, Math.floor((worldH - L.gy) / (L.h + L.gy)));
  const at = sorted.indexOf(L.row(near.l));
  let i0 = Math.max(0, Math.min(at - Math.floor((k - 1) / 2), sorted.length - k));
  let i1 = Math.min(sorted.length - 1, i0 + k - 1);
  while (i1 > i0 && sorted[i1] + L.h - sorted[i0] > worldH - L.gy) { if (i1 > at) i1--; else i0++; }
  const v = boxAt(0, (sorted[i0] + sorted[i1] + L.h) / 2, MIN_PX);
  const left = xAt(t);
  const focusT = pick ? pick.t : Math.min(Math.max(t, near.start), near.end);
  const cx = right - left <= v.w ? Math.max((left + right) / 2, right - v.w / 2) : Math.min(L.left + L.col(focusT) + L.w + L.gx * 0.8, L.left + L.col(focusT) - L.gx + v.w) - v.w / 2;
  return { ...v, x: cx - v.w / 2 };
}

/** The view showing the boards of a list (centred on their box, squares >= MIN_PX when they fit,
 * else centred on the first of them at MIN_PX). */
function boardsView(list) {
  const L = app.layout;
  if (!list.length || !L) return presentView();
  const xs = list.map((b) => L.left + L.col(b.t)), ys = list.map((b) => L.row(b.l));
  const r = { x: Math.min(...xs) - L.gx / 2, y: Math.min(...ys) - L.gy / 2, w: 0, h: 0 };
  r.w = Math.max(...xs) + L.w + L.gx / 2 - r.x; r.h = Math.max(...ys) + L.h + L.gy / 2 - r.y;
  const { w: vw, h: vh } = viewSize();
  const px = Math.min(REVIEW_PX, Math.min(vw / r.w, vh / r.h) * SQ);
  if (px >= MIN_PX) return boxAt(r.x + r.w / 2, r.y + r.h / 2, px);
  return boxAt(xs[0] + L.w / 2, ys[0] + L.h / 2, MIN_PX);
}

/** Moves the camera where its mode says (present or fit; a free camera stays). */
function camera(animate) {
  if (app.cam === 'free') { setViewBox(); return; }
  moveTo(app.cam === 'fit' ? fitView() : presentView(), animate);
}

/** Goes to a view box, animated (about a quarter of a second, eased; the zoom is interpolated
 * geometrically so that it feels even) or at once. */
function moveTo(target, animate = true) {
  cancelAnimationFrame(app.anim || 0);
  const from = { ...app.vb };
  const view = $('#view');
  // A small change (a refit after a board was added) is applied at once: nothing to follow.
  const small = Math.abs(target.w / from.w - 1) < 0.06 && Math.hypot(target.x + target.w / 2 - from.x - from.w / 2, target.y + target.h / 2 - from.y - from.h / 2) < from.w * 0.04;
  if (!animate || small || matchMedia('(prefers-reduced-motion: reduce)').matches) {
    app.vb = target; view.dataset.camera = 'still'; setViewBox(); return;
  }
  const t0 = performance.now(), dur = 280;
  view.dataset.camera = 'moving';
  const step = (now) => {
    const k = Math.min(1, (now - t0) / dur), e = k < 0.5 ? 2 * k * k : 1 - (-2 * k + 2) ** 2 / 2;
    const w = from.w * (target.w / from.w) ** e, h = from.h * (target.h / from.h) ** e;
    const cx = from.x + from.w / 2 + (target.x + target.w / 2 - from.x - from.w / 2) * e;
    const cy = from.y + from.h / 2 + (target.y + target.h / 2 - from.y - from.h / 2) * e;
    app.vb = k < 1 ? { x: cx - w / 2, y: cy - h / 2, w, h } : target;
    applyViewBox();
    if (k < 1) app.anim = requestAnimationFrame(step); else view.dataset.camera = 'still';
  };
  app.anim = requestAnimationFrame(step);
}

/** The boards the shown action touched (where its moves started and landed, as they are after
 * it), for review. */
function showTouched() {
  const s = app.shown;
  if (!s) return;
  const seen = new Map();
  const add = (l, t) => { const b = draw.boards.get(`${l},${t}`); if (b) seen.set(`${l},${t}`, b); };
  for (const m of s.last_action) {
    for (const c of [m.from, m.to]) {
      const e = existing(s, { ...c, t: c.t + 1 });
      add(e.l, e.t);
      add(c.l, c.t);
      // A jump that branched: its landing board is the new timeline's first.
      for (const tl of s.timelines) if (tl.origin && tl.origin.l === c.l && tl.origin.t === c.t) add(tl.l, tl.start);
    }
  }
  app.cam = 'free';
  moveTo(seen.size ? boardsView([...seen.values()]) : presentView());
}

function fitAll() { app.cam = 'fit'; moveTo(fitView()); }
function goPresent() { app.cam = 'present'; moveTo(presentView()); }

/** Centres the view on the board (l, t) (timeline and half-turn indices) at a readable size. */
function showBoard(l, t) {
  const L = app.layout;
  if (!L) return;
  cancelAnimationFrame(app.anim || 0);
  app.cam = 'free';
  app.vb = boxAt(L.left + L.col(t) + L.w / 2, L.row(l) + L.h / 2, 40);
  $('#view').dataset.camera = 'still';
  setViewBox();
}
window.__chess5dShow = showBoard;

function zoomAt(factor, px, py) {
  cancelAnimationFrame(app.anim || 0);
  $('#view').dataset.camera = 'still';
  const v = app.vb;
  const nw = Math.min(Math.max(v.w * factor, 80), 400000), f = nw / v.w;
  app.vb = { x: px - (px - v.x) * f, y: py - (py - v.y) * f, w: nw, h: v.h * f };
  app.cam = 'free';
  setViewBox();
}

/** Zoom by a button or key: animated, around the centre of the view. */
function zoomStep(factor) {
  const v = app.vb, w = Math.min(Math.max(v.w * factor, 80), 400000), h = v.h * (w / v.w);
  app.cam = 'free';
  moveTo({ x: v.x + v.w / 2 - w / 2, y: v.y + v.h / 2 - h / 2, w, h });
}

function svgPoint(ev) {
  const svg = $('#view'), r = svg.getBoundingClientRect();
  const v = app.vb;
  // preserveAspectRatio meet: the viewBox is scaled uniformly and centred.
  const scale = Math.min(r.width / v.w, r.height / v.h);
  const ox = (r.width - v.w * scale) / 2, oy = (r.height - v.h * scale) / 2;
  return [v.x + (ev.clientX - r.left - ox) / scale, v.y + (ev.clientY - r.top - oy) / scale, scale];
}

/** The board and square under a pointer event, or null: {l, t, sq, board}. */
function hitTest(ev) {
  const s = app.shown, L = app.layout;
  if (!s || !L) return null;
  const [wx, wy] = svgPoint(ev);
  const cx = wx - L.left, ci = Math.floor(cx / (L.w + L.gx)), bx = cx - ci * (L.w + L.gx);
  const ri = Math.floor(wy / (L.h + L.gy)), by = wy - ri * (L.h + L.gy);
  if (bx < 0 || bx >= L.w || by < 0 || by >= L.h) return null;
  const t = L.minT + ci, l = app.flip ? L.maxL - ri : L.minL + ri;
  const board = draw.boards.get(`${l},${t}`);
  if (!board) return null;
  const x = Math.floor(bx / SQ), y = Math.floor(by / SQ);
  const sq = app.flip ? FILES[s.size.w - 1 - x] + (y + 1) : FILES[x] + (s.size.h - y);
  return { l, t, sq, board };
}

function fmtClock(ms) {
  if (ms == null) return '';
  ms = Math.max(0, ms);
  const t = Math.ceil(ms / 1000), m = Math.floor(t / 60), sec = t % 60;
  return `${m}:${String(sec).padStart(2, '0')}`;
}

function renderClocks() {
  const s = app.state;
  if (!s || !s.clock) { for (const c of document.querySelectorAll('#players .clock')) c.textContent = ''; return; }
  const el = performance.now() - app.clockBase.t;
  for (const side of ['white', 'black']) {
    let ms = app.clockBase[side];
    if (s.clock.running && s.to_move === side) ms -= el;
    $(`#p-${side} .clock`).textContent = fmtClock(ms);
  }
}
setInterval(renderClocks, 250);

function renderSide() {
  const s = app.state, shown = app.shown;
  if (!s || app.editor) return;
  document.title = `chess5d game ${s.id}`;
  for (const side of ['white', 'black']) {
    const p = $(`#p-${side}`);
    p.querySelector('.name').textContent = s.players[side].display;
    p.classList.toggle('to-move', !s.result && s.to_move === side);
  }
  renderClocks();
  const live = app.review === null && !app.analysis;
  const c = cur();
  const playing = app.analysis ? !c.result && c.human_to_move : live && s.human_to_move;
  $('#btn-submit').disabled = !(playing && c.can_submit);
  $('#btn-undo').disabled = !(playing && c.pending.length > 0);
  $('#btn-resign').disabled = !!s.result || !live;
  $('#play').dataset.review = app.review ?? s.action_count;
  const at = app.review ?? s.action_count;
  for (const [b, off] of [['#btn-first', at <= 0], ['#btn-prev', at <= 0], ['#btn-next', at >= s.action_count], ['#btn-last', app.review === null]]) {
    $(b).disabled = off || !!app.analysis;
  }
  // The status line: whose move, the present, what must still be played; in review, which
  // action is shown. Engine output never goes here (it is in the analysis panel).
  let status;
  const shownState = app.analysis ? c : shown || s;
  const where = presentText(shownState);
  if (app.analysis) {
    status = c.result ? `Analysis board: game over (${c.result}).` : `Analysis board: ${cap(c.to_move)} to move. ${where}`;
    if (!c.result) status += stillToPlay(c);
  } else if (!live) {
    const a = s.actions[app.review - 1];
    status = app.review === 0
      ? `Reviewing the start position (action 0 of ${s.action_count}). ${where}`
      : `Reviewing action ${app.review} of ${s.action_count}: ${a.number}. ${cap(a.color)} ${shortAction(a.text)}. ${where}`;
  } else if (s.result) {
    status = 'Game over.';
  } else if (s.engine_busy && !s.human_to_move) {
    status = `${cap(s.to_move)} (engine) is thinking… ${where}`;
  } else {
    status = `${cap(s.to_move)} to move. ${where}`;
    if (s.check) status += ' Check!';
    if (s.human_to_move) status += stillToPlay(s);
  }
  if (s.puzzle && !app.analysis) status = `Puzzle “${s.puzzle.name}”: ${cap(s.puzzle.solver)} mates in ${s.puzzle.mate_in}. ` + status;
  $('#status').textContent = status;
  // An engine that failed (crash, timeout, illegal answer): say so and offer a restart.
  const ep = $('#engine-problem');
  ep.classList.toggle('hidden', !(s.engine_error && !s.result));
  ep.querySelector('span').textContent = s.engine_error ? `${s.engine_error} ` : '';
  const go = $('#gameover');
  if (s.result && !app.analysis) {
    let text;
    if (s.puzzle && s.puzzle.status === 'failed') text = `Puzzle failed: no mate within ${s.puzzle.mate_in} action${s.puzzle.mate_in > 1 ? 's' : ''}.`;
    else {
      const winner = s.result === '1-0' ? 'White wins' : s.result === '0-1' ? 'Black wins' : s.result === '*' ? 'No result' : 'Draw';
      const how = { checkmate: 'Checkmate', stalemate: 'Stalemate', resignation: 'Resignation', time: 'Time forfeit' }[s.termination] || cap(s.termination || 'Finished');
      text = `${how}: ${winner} (${s.result})`;
      if (s.puzzle && s.puzzle.status === 'solved') text += ' — Puzzle solved!';
    }
    go.textContent = text;
    go.classList.remove('hidden');
  } else go.classList.add('hidden');
  const rb = $('#review-bar');
  if (app.review !== null && !app.analysis) { rb.classList.remove('hidden'); rb.querySelector('span').textContent = `Reviewing the position after action ${app.review} of ${s.action_count}.`; } else rb.classList.add('hidden');
  // Analysis: allowed on any position but a puzzle still being solved.
  const puzzleOpen = s.puzzle && s.puzzle.status === 'playing';
  $('#btn-analyse').disabled = !!puzzleOpen;
  $('#btn-analyse').setAttribute('aria-pressed', String(!!app.analysis));
  $('#btn-analyse').classList.toggle('on', !!app.analysis);
  $('#btn-save-puzzle').disabled = !!puzzleOpen || (app.review === null && !app.analysis && s.pending.length > 0);
  renderAnalysis();
  // Notation, one line per turn.
  const rows = [];
  let row = null;
  for (const a of s.actions) {
    if (!row || a.color === 'white') { row = { turn: a.number, items: [] }; rows.push(row); }
    row.items.push(a);
  }
  const curIdx = app.review ?? s.action_count;
  const html = rows.map((r) => `<li value="${r.turn}">${r.items.map((a) =>
    `<span class="act ${a.index === curIdx ? 'current' : ''}" data-index="${a.index}" role="button" tabindex="0">${esc(a.text)}</span>`).join(' / ')}</li>`).join('');
  if (html !== app.notationHtml) {
    app.notationHtml = html;
    $('#notation').innerHTML = html;
    const curEl = $('#notation .current');
    if (curEl) curEl.scrollIntoView({ block: 'nearest' });
  }
  window.chess5dOnline?.onState(s); // hook: seat, links, draw offers; spectators' buttons off
}

/** " Still to play: (0T3), (1T3)." or " Ready to submit." for the player building an action. */
function stillToPlay(s) {
  const must = s.boards.filter((b) => b.mandatory).map((b) => `(${b.label}T${b.turn})`);
  if (must.length) return ` Still to play: ${must.slice(0, 6).join(', ')}${must.length > 6 ? ` and ${must.length - 6} more` : ''}.`;
  if (s.can_submit) return s.pending.length ? ' Ready to submit.' : '';
  return s.submit_error ? ` (${s.submit_error})` : '';
}

function cap(s) { return s ? s[0].toUpperCase() + s.slice(1) : s; }

$('#notation').addEventListener('click', (ev) => {
  const a = ev.target.closest('.act');
  if (a && !app.analysis) setReview(Number(a.dataset.index)).catch((e) => showError(e.message));
});
$('#btn-live').addEventListener('click', () => setReview(null));
// Review by buttons, as by the arrow keys: the start, one action back or on, the live position.
function reviewStep(to) {
  if (!app.state || app.editor || app.analysis) return;
  const at = app.review ?? app.state.action_count;
  const target = { first: 0, prev: at - 1, next: at + 1, last: null }[to];
  setReview(target).catch((e) => showError(e.message));
}
for (const to of ['first', 'prev', 'next', 'last']) $(`#btn-${to}`).addEventListener('click', () => reviewStep(to));
document.addEventListener('keydown', (ev) => {
  if ($('#play').classList.contains('hidden') || ev.target.closest('input, textarea, select, dialog') || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const k = ev.key;
  if (k === 'f') { ev.preventDefault(); fitAll(); return; }
  if (k === 'p') { ev.preventDefault(); goPresent(); return; }
  if (k === '+' || k === '=') { ev.preventDefault(); zoomStep(0.8); return; }
  if (k === '-' || k === '_') { ev.preventDefault(); zoomStep(1.25); return; }
  if (k === 'Escape') { app.selected = null; app.dests.clear(); applyHighlights(); hidePromotion(); return; }
  if (!app.state || app.editor || app.analysis) return;
  const at = app.review ?? app.state.action_count;
  if (k === 'Home') { ev.preventDefault(); setReview(0); return; }
  if (k === 'End') { ev.preventDefault(); setReview(null); return; }
  if (k === 'ArrowLeft' || k === 'ArrowUp') { ev.preventDefault(); setReview(at - 1); }
  else if (k === 'ArrowRight' || k === 'ArrowDown') { ev.preventDefault(); setReview(at + 1); }
  else if (k === 'Home') { ev.preventDefault(); setReview(0); }
  else if (k === 'End') { ev.preventDefault(); setReview(null); }
});

// ---------- interaction ----------

async function act(path, body) {
  try {
    showError(null);
    const r = await api('POST', `${base()}/${path}`, body);
    if (app.analysis && r.analysis) setAnalysisState(r); else setState(r);
  } catch (e) {
    showError(e.message);
  }
}

$('#btn-submit').addEventListener('click', () => act('submit'));
$('#btn-undo').addEventListener('click', () => act('undo'));
$('#btn-retry').addEventListener('click', () => act('retry-engine'));
$('#btn-resign').addEventListener('click', () => { if (confirm('Resign this game?')) act('resign', {}); });
$('#btn-flip').addEventListener('click', () => { app.flip = !app.flip; render(); camera(false); });
$('#btn-fit').addEventListener('click', fitAll);
$('#btn-present').addEventListener('click', goPresent);
$('#btn-zoom-in').addEventListener('click', () => zoomStep(0.8));
$('#btn-zoom-out').addEventListener('click', () => zoomStep(1.25));
$('#btn-panel').addEventListener('click', () => $('#side').scrollIntoView({ behavior: 'smooth' }));

function hidePromotion() { $('#promotion').classList.add('hidden'); }

function choose(moves) {
  app.selected = null;
  app.dests.clear();
  applyHighlights();
  if (moves.length === 1) { act('move', { move: moves[0].long }); return; }
  const box = $('#promotion');
  box.innerHTML = '<span>Promote to:</span>' + moves.map((m, i) => `<button type="button" data-i="${i}" aria-label="Promote to ${m.promotion}">${m.promotion}</button>`).join('');
  box.classList.remove('hidden');
  box.onclick = (ev) => {
    const b = ev.target.closest('button');
    if (!b) return;
    hidePromotion();
    act('move', { move: moves[Number(b.dataset.i)].long });
  };
}

/** Whether the player at the browser may pick pieces now. */
function canPlay() {
  if (app.analysis) return !app.analysis.state.result;
  const s = app.state;
  return !!s && app.review === null && s.human_to_move && !s.result && (window.chess5dOnline?.mayMove(s) ?? true);
}

/** Selects the piece on (l, t, sq) and asks the server for its destinations. */
function select(l, t, sq) {
  const s = cur();
  app.selected = { l, t, sq };
  app.dests.clear();
  applyHighlights();
  const version = s.version;
  const p = api('GET', `${base()}/moves?l=${l}&t=${t}&square=${sq}`).then((r) => {
    if (!app.selected || app.selected.l !== l || app.selected.t !== t || app.selected.sq !== sq || cur().version !== version) return;
    app.dests.clear();
    for (const m of r.moves) {
      const k = `${m.to.l},${m.to.t},${m.to.sq}`;
      if (!app.dests.has(k)) app.dests.set(k, []);
      app.dests.get(k).push(m);
    }
    applyHighlights();
  }).catch((e) => showError(e.message));
  app.selecting = p;
  return p;
}

function deselect() {
  if (!app.selected && !app.dests.size) return;
  app.selected = null;
  app.dests.clear();
  applyHighlights();
}

/** Whether (l, t, sq) holds a piece of the side to move on a playable board. */
function ownPiece(hit) {
  const s = cur();
  if (!hit || !hit.board.playable) return false;
  const piece = hit.board.pieces.find((p) => p.sq === hit.sq);
  return !!piece && piece.c === s.to_move;
}

const keyOf = (h) => `${h.l},${h.t},${h.sq}`;

// Pointer handling on the view: a press on a piece that may move selects it, and dragging it
// carries it (release on a destination to move); a press elsewhere pans (drag) or, without a
// drag, is a click: on a destination it moves the selected piece, on another square it clears
// the selection. Two pointers pinch-zoom; the wheel zooms.
(() => {
  const svg = $('#view');
  const pointers = new Map();
  let press = null, pinch = null;
  const ghost = $('#drag-layer');

  const showGhost = (ev) => {
    const [wx, wy] = svgPoint(ev);
    const piece = press.piece;
    const x = wx - SQ / 2, y = wy - SQ / 2;
    if (PIECE_PATHS[piece.p]) {
      ghost.innerHTML = piece.c === 'white'
        ? `<path class="pc-white" d="${glyph(piece.p, 'fill', x, y)}"/><path class="pc-white-line" d="${glyph(piece.p, 'line', x, y)}"/>`
        : `<path class="pc-black" d="${glyph(piece.p, 'fill', x, y)}"/>`;
    } else {
      ghost.innerHTML = `<circle cx="${wx}" cy="${wy}" r="${SQ * 0.38}" class="ghost-fairy"/>`;
    }
  };

  svg.addEventListener('pointerdown', (ev) => {
    if (ev.button !== undefined && ev.button > 0) return;
    pointers.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      pinch = { d: Math.hypot(a.x - b.x, a.y - b.y), vb: { ...app.vb } };
      if (press && press.mode === 'piece') ghost.innerHTML = '';
      press = null;
      return;
    }
    if (pointers.size !== 1) return;
    const hit = hitTest(ev);
    cancelAnimationFrame(app.anim || 0);
    $('#view').dataset.camera = 'still';
    press = { x: ev.clientX, y: ev.clientY, vb: { ...app.vb }, moved: false, hit, mode: 'pan' };
    if (app.editor) { press.mode = 'edit'; return; }
    if (!canPlay() || !hit) return;
    const k = keyOf(hit);
    if (app.selected && app.dests.has(k)) {
      press.mode = 'dest';
    } else if (ownPiece(hit)) {
      press.mode = 'piece';
      press.piece = hit.board.pieces.find((p) => p.sq === hit.sq);
      const same = app.selected && keyOf(app.selected) === k;
      press.again = same;
      if (!same) select(hit.l, hit.t, hit.sq);
      svg.setPointerCapture(ev.pointerId);
    }
  });

  svg.addEventListener('pointermove', (ev) => {
    if (!pointers.has(ev.pointerId)) return;
    pointers.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
    if (pinch && pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      const d = Math.hypot(a.x - b.x, a.y - b.y) || 1;
      const [px, py] = svgPoint({ clientX: (a.x + b.x) / 2, clientY: (a.y + b.y) / 2 });
      app.vb = { ...pinch.vb };
      zoomAt(pinch.d / d, px, py);
      return;
    }
    if (!press) return;
    const dx = ev.clientX - press.x, dy = ev.clientY - press.y;
    if (!press.moved && Math.hypot(dx, dy) < 5) return;
    if (!press.moved) {
      press.moved = true;
      if (press.mode === 'dest' || press.mode === 'edit') press.mode = 'pan';
      if (press.mode === 'pan') { svg.setPointerCapture(ev.pointerId); svg.classList.add('dragging'); }
      else svg.classList.add('carrying');
    }
    if (press.mode === 'piece') { showGhost(ev); return; }
    const r = svg.getBoundingClientRect();
    const scale = Math.min(r.width / press.vb.w, r.height / press.vb.h);
    app.vb = { ...press.vb, x: press.vb.x - dx / scale, y: press.vb.y - dy / scale };
    app.cam = 'free';
    setViewBox();
  });

  const up = async (ev) => {
    pointers.delete(ev.pointerId);
    svg.classList.remove('dragging', 'carrying');
    if (pointers.size < 2) pinch = null;
    const p = press;
    press = null;
    if (!p) return;
    if (p.mode === 'piece') ghost.innerHTML = '';
    if (ev.type !== 'pointerup') return;
    if (p.mode === 'piece') {
      if (!p.moved) {
        if (p.again) deselect();
        return;
      }
      // Dropped: wait for the destinations if they are still coming, then move if allowed.
      const at = hitTest(ev);
      await app.selecting;
      if (at && app.dests.has(keyOf(at))) choose(app.dests.get(keyOf(at)));
      return;
    }
    if (p.moved) return;
    const at = hitTest(ev);
    if (p.mode === 'edit') { if (at) editAt(at); return; }
    if (p.mode === 'dest' && at && app.dests.has(keyOf(at))) { choose(app.dests.get(keyOf(at))); return; }
    deselect();
  };
  svg.addEventListener('pointerup', up);
  svg.addEventListener('pointercancel', up);
  svg.addEventListener('wheel', (ev) => {
    ev.preventDefault();
    const [px, py] = svgPoint(ev);
    zoomAt(Math.exp(ev.deltaY * 0.0015), px, py);
  }, { passive: false });
})();

// ---------- analysis board ----------
//
// "Analyse" opens an analysis board on the position shown (live or reviewed): a scratch copy
// on the server where moves can be tried without changing the game, with the engine analysing
// it continuously (go infinite / stop). Its evaluation (White's view), depth, speed and best
// line come over the board's WebSocket. Leaving discards it; "Export variation" writes the
// game up to that point with the moves tried as a variation.

async function startAnalysis() {
  const s = app.state;
  if (!s || app.analysis) return;
  const body = { game: s.id };
  if (app.review !== null) body.at = app.review;
  let st;
  try { st = await api('POST', '/api/analysis', body); } catch (e) { showError(e.message); return; }
  app.analysis = { id: st.analysis.id, state: st, info: null, engineOn: true };
  app.selected = null; app.dests.clear();
  const proto = location.protocol === 'https:' ? 'wss' : 'ws';
  const ws = new WebSocket(`${proto}://${location.host}/api/analysis/${st.analysis.id}/ws`);
  app.analysis.ws = ws;
  const a = app.analysis;
  ws.onmessage = (m) => {
    const d = JSON.parse(m.data);
    if (app.analysis !== a || !d.engine) return;
    a.info = d.engine;
    renderAnalysis();
    if (app.pv !== null) render();
  };
  app.shown = st;
  render();
  await engine(true);
}

/** The id of the analysis board open in the page, or null (for scripts). */
window.__chess5dAnalysis = () => app.analysis?.id ?? null;

function endAnalysis() {
  const a = app.analysis;
  if (!a) return;
  app.analysis = null;
  app.pv = null;
  // Deleted first, then the socket closed (the server also forgets a board whose page left).
  if (a.ws) a.ws.onmessage = null;
  fetch(`/api/analysis/${a.id}`, { method: 'DELETE', headers: { 'Content-Type': 'application/json' } }).catch(() => {}).finally(() => a.ws && a.ws.close());
  $('#analysis').classList.add('hidden');
  // The hooks say nothing of a board that is gone (a script waits for the next one's report).
  $('#pv').dataset.pv = '';
  $('#eval').dataset.eval = '';
}

async function stopAnalysis() {
  endAnalysis();
  const s = app.state;
  if (!s) return;
  app.selected = null; app.dests.clear();
  app.shown = app.review === null ? s : await api('GET', `/api/games/${s.id}?at=${app.review}`);
  render();
}

/** Starts or stops the engine of the analysis board. */
async function engine(on) {
  const a = app.analysis;
  if (!a) return;
  a.engineOn = on;
  try {
    const info = await api('POST', `/api/analysis/${a.id}/${on ? 'start' : 'stop'}`);
    if (app.analysis === a) { a.info = info; renderAnalysis(); }
  } catch (e) {
    if (app.analysis === a) { a.engineOn = false; $('#analysis-error').textContent = e.message; $('#analysis-error').classList.remove('hidden'); renderAnalysis(); }
  }
}

/** A new position on the analysis board (a move tried, undone or submitted). */
function setAnalysisState(st) {
  const a = app.analysis;
  a.state = st;
  a.info = null;
  app.pv = null;
  app.selected = null; app.dests.clear();
  app.shown = st;
  render();
  // The engine goes on with the new position (unless the player stopped it).
  if (a.engineOn && !st.result && !st.pending.length) engine(true);
}

function fmtEval(e) {
  if (e == null) return '…';
  if (e.startsWith('mate')) { const n = Number(e.slice(5)); return n > 0 ? `White mates in ${n}` : `Black mates in ${-n}`; }
  const v = Number(e) / 100;
  return (v > 0 ? '+' : '') + v.toFixed(2);
}

function renderAnalysis() {
  const a = app.analysis;
  $('#analysis').classList.toggle('hidden', !a);
  if (!a) return;
  const i = a.info || {};
  const ev = $('#eval');
  ev.dataset.eval = i.eval ?? '';
  ev.textContent = fmtEval(i.eval);
  // The bar: White's share, from the centipawns (a mate fills it).
  let share = 0.5;
  if (i.eval) share = i.eval.startsWith('mate') ? (Number(i.eval.slice(5)) > 0 ? 1 : 0) : 1 / (1 + Math.exp(-Number(i.eval) / 250));
  $('#eval-fill').style.height = `${Math.round(share * 100)}%`;
  $('#eval-depth').textContent = i.depth ? `depth ${i.depth}` : '';
  $('#eval-nps').textContent = i.nps ? `${i.nps >= 1000 ? Math.round(i.nps / 1000) + 'k' : i.nps} nodes/s` : '';
  const pv = i.pv || [];
  const box = $('#pv');
  box.dataset.pv = pv.map((x) => x.text).join(' | ');
  const html = pv.map((x, k) => `<span class="pv-act pv-${x.color}${app.pv === k ? ' current' : ''}" data-k="${k}" role="button" tabindex="0" title="Show as arrows">${esc(x.text)}</span>`).join(' ');
  if (box.innerHTML !== html) box.innerHTML = html || '<span class="muted">(the engine has not reported a line yet)</span>';
  const running = !!i.running;
  const t = $('#btn-engine-toggle');
  t.textContent = running ? 'Stop engine' : 'Start engine';
  t.setAttribute('aria-label', t.textContent);
  $('#analysis').dataset.engine = running ? 'running' : 'stopped';
  const tried = a.state.analysis.tried;
  $('#analysis-tried').textContent = tried ? `(${tried} action${tried > 1 ? 's' : ''} tried)` : '';
  // The actions tried on the board, numbered as the export writes them.
  const line = (a.state.actions || []).slice(a.state.analysis.base_actions);
  const lineHtml = line.map((x) => `<li value="${x.number}" class="tried-${x.color}">${x.color === 'black' ? '… ' : ''}${esc(x.text)}</li>`).join('');
  if ($('#analysis-line').innerHTML !== lineHtml) $('#analysis-line').innerHTML = lineHtml;
  $('#btn-takeback').disabled = !(tried || a.state.pending.length);
  const err = $('#analysis-error');
  if (i.error) { err.textContent = i.error; err.classList.remove('hidden'); } else if (running) err.classList.add('hidden');
}

$('#btn-analyse').addEventListener('click', () => (app.analysis ? stopAnalysis() : startAnalysis()));
$('#btn-discard').addEventListener('click', stopAnalysis);
$('#btn-takeback').addEventListener('click', async () => {
  const a = app.analysis;
  if (!a) return;
  try {
    const st = await api('POST', `/api/analysis/${a.id}/${a.state.pending.length ? 'undo' : 'takeback'}`);
    if (app.analysis === a) setAnalysisState(st);
  } catch (e) { showError(e.message); }
});
$('#btn-engine-toggle').addEventListener('click', () => engine(!(app.analysis?.info?.running)));
$('#btn-variation').addEventListener('click', async () => {
  const a = app.analysis;
  if (!a) return;
  const text = await fetch(`/api/analysis/${a.id}/pgn`).then((r) => r.text());
  showExport('Export variation (5DPGN)', text, `chess5d-analysis-${app.state.id}.5dpgn`);
});
$('#pv').addEventListener('click', (ev) => {
  const x = ev.target.closest('.pv-act');
  if (!x) return;
  const k = Number(x.dataset.k);
  app.pv = app.pv === k ? null : k;
  renderAnalysis();
  render();
});

// ---------- puzzles: save, prove, import ----------

function openPuzzleDialog(source, what) {
  app.puzzleSource = source;
  $('#puzzle-dialog-what').textContent = what;
  $('#pz-text').classList.toggle('hidden', !source.importText);
  $('#pz-text').value = '';
  $('#pz-error').classList.add('hidden');
  $('#pz-ok').classList.add('hidden');
  $('#pz-save').disabled = false;
  $('#puzzle-dialog').showModal();
}

$('#pz-cancel').addEventListener('click', () => $('#puzzle-dialog').close());
$('#pz-save').addEventListener('click', async () => {
  const src = app.puzzleSource;
  const body = { mate_in: Number($('#pz-mate').value) };
  const name = $('#pz-name').value.trim();
  if (name) body.name = name;
  if (src.importText) {
    body.import = $('#pz-text').value;
    // An imported record says its own goal unless the player picked one.
    if (/\[Puzzle\s+"mate-in-\d+"\]/i.test(body.import) && !app.puzzleGoalTouched) delete body.mate_in;
  } else if (src.fen) body.import = src.fen;
  else { body.game = src.game; if (src.at !== undefined) body.at = src.at; }
  $('#pz-error').classList.add('hidden');
  $('#pz-ok').classList.remove('hidden');
  $('#pz-ok').textContent = 'Proving the goal (every action of both sides is tried)…';
  $('#pz-save').disabled = true;
  try {
    const r = await api('POST', '/api/user-puzzles', body);
    $('#pz-ok').textContent = `Saved “${r.name}”: ${cap(r.to_move)} mates in ${r.mate_in}, proven. Solution: ${(r.pgn.match(/\n\(([^)]*)\)/) || [])[1] || ''}`;
    $('#pz-ok').dataset.saved = r.id;
    refreshPuzzles().catch(() => {});
  } catch (e) {
    $('#pz-ok').classList.add('hidden');
    $('#pz-error').textContent = e.message;
    $('#pz-error').classList.remove('hidden');
    $('#pz-save').disabled = false;
  }
});
$('#pz-mate').addEventListener('change', () => { app.puzzleGoalTouched = true; });
$('#btn-puzzle-import').addEventListener('click', () => { app.puzzleGoalTouched = false; openPuzzleDialog({ importText: true }, 'Paste a puzzle (5DPGN with a [Puzzle "mate-in-N"] header, or any position). Its goal is proven before it is saved.'); $('#pz-text').focus(); });
$('#btn-puzzle-make').addEventListener('click', () => { location.hash = '#/editor'; });
$('#btn-save-puzzle').addEventListener('click', () => {
  const s = app.state;
  if (!s) return;
  if (app.analysis) {
    openPuzzleDialog({ fen: app.analysis.state.fen }, `The position of the analysis board, ${cap(app.analysis.state.to_move)} to move.`);
    return;
  }
  const at = app.review ?? s.action_count;
  openPuzzleDialog({ game: s.id, at }, `The position after action ${at} of game ${s.id}, ${cap((app.shown || s).to_move)} to move.`);
});

// ---------- position editor ----------
//
// A model of boards (timeline, half-turn, pieces with unmoved markers) drawn with the same
// renderer as games; written as 5DFEN for the server (which checks it and proves puzzles).

const ED_PIECES = ['K', 'Q', 'R', 'B', 'N', 'P'];
const STANDARD_ROWS = ['r*nbqk*bnr*', 'p*p*p*p*p*p*p*p*', '8', '8', '8', '8', 'P*P*P*P*P*P*P*P*', 'R*NBQK*BNR*'];

function edBoard(l, t, pieces = new Map()) { return { l, t, pieces }; }

function openEditor() {
  closeWs();
  endAnalysis();
  app.state = null;
  app.review = null;
  showPage('play');
  $('#editor-panel').classList.remove('hidden');
  $('#game-panel').classList.add('hidden');
  document.title = 'chess5d: position editor';
  if (!app.editor) {
    app.editor = { w: 8, h: 8, boards: new Map(), sel: '0,2', tool: 'wK', version: 1 };
    edStandard();
    $('#ed-size').innerHTML = [8, 7, 6, 5, 4].map((n) => `<option value="${n}">${n}x${n}</option>`).join('');
    $('#ed-palette').innerHTML = ['white', 'black'].map((c) => ED_PIECES.map((p) =>
      `<button type="button" data-tool="${c[0]}${p}" aria-label="${c} ${p}" class="tool ${c}">${p}</button>`).join('')).join('') +
      '<button type="button" data-tool="x" aria-label="Erase" class="tool">✕</button>';
  }
  app.cam = 'present';
  app.layoutKey = '';
  resetDrawing();
  edRender();
}

function edParseRows(rows) {
  const m = new Map();
  rows.forEach((row, i) => {
    let x = 0;
    const y = 8 - i;
    for (let k = 0; k < row.length; k++) {
      const ch = row[k];
      if (/\d/.test(ch)) { x += Number(ch); continue; }
      const unmoved = row[k + 1] === '*';
      if (unmoved) k++;
      m.set(FILES[x] + y, { p: ch.toUpperCase(), c: ch === ch.toUpperCase() ? 'white' : 'black', unmoved });
      x++;
    }
  });
  return m;
}

function edStandard() {
  const e = app.editor;
  e.w = 8; e.h = 8;
  e.boards = new Map([['0,2', edBoard(0, 2, edParseRows(STANDARD_ROWS))]]);
  e.sel = '0,2';
}

/** The editor's position as 5DFEN (every board written out). */
function edFen() {
  const e = app.editor;
  const lines = ['[Board "custom"]', `[Size "${e.w}x${e.h}"]`];
  const boards = [...e.boards.values()].sort((a, b) => a.l - b.l || a.t - b.t);
  for (const b of boards) {
    const rows = [];
    for (let y = e.h; y >= 1; y--) {
      let row = '', empty = 0;
      for (let x = 0; x < e.w; x++) {
        const pc = b.pieces.get(FILES[x] + y);
        if (!pc) { empty++; continue; }
        if (empty) { row += empty; empty = 0; }
        row += (pc.c === 'white' ? pc.p : pc.p.toLowerCase()) + (pc.unmoved ? '*' : '');
      }
      if (empty) row += empty;
      rows.push(row);
    }
    lines.push(`[${rows.join('/')}:${b.l > 0 ? '+' + b.l : b.l}:${Math.floor(b.t / 2)}:${b.t % 2 ? 'b' : 'w'}]`);
  }
  return lines.join('\n') + '\n';
}

/** The editor's model as a game state, for the renderer. */
function edState() {
  const e = app.editor;
  const boards = [...e.boards.values()];
  const tls = new Map();
  for (const b of boards) {
    const tl = tls.get(b.l) || { l: b.l, label: String(b.l > 0 ? '+' + b.l : b.l), active: true, start: b.t, end: b.t, origin: null };
    tl.start = Math.min(tl.start, b.t); tl.end = Math.max(tl.end, b.t);
    tls.set(b.l, tl);
  }
  const present = Math.min(...[...tls.values()].map((t) => t.end));
  return {
    id: 'editor', version: e.version, size: { w: e.w, h: e.h }, even: false,
    to_move: present % 2 ? 'black' : 'white', present: { t: present, turn: Math.floor(present / 2), color: present % 2 ? 'black' : 'white' },
    boards: boards.map((b) => ({ l: b.l, t: b.t, label: tls.get(b.l).label, turn: Math.floor(b.t / 2), color: b.t % 2 ? 'black' : 'white',
      playable: false, mandatory: `${b.l},${b.t}` === e.sel, pieces: [...b.pieces].map(([sq, p]) => ({ sq, p: p.p, c: p.c })) })),
    timelines: [...tls.values()], pending: [], last_action: [], check: null, actions: [], action_count: 0,
  };
}

function edRender() {
  const e = app.editor;
  e.version++;
  app.shown = edState();
  render();
  $('#ed-fen').value = edFen();
  $('#ed-side').value = app.shown.to_move;
  $('#ed-size').value = String(e.w);
  for (const b of document.querySelectorAll('#ed-palette .tool')) b.classList.toggle('current', b.dataset.tool === e.tool);
  $('#editor-panel').dataset.boards = String(e.boards.size);
}

/** A click on a square of the editor: selects its board and places (or removes) a piece. */
function editAt(hit) {
  const e = app.editor;
  const k = `${hit.l},${hit.t}`;
  e.sel = k;
  const b = e.boards.get(k);
  if (!b) return;
  const old = b.pieces.get(hit.sq);
  if (e.tool === 'x') b.pieces.delete(hit.sq);
  else {
    const c = e.tool[0] === 'w' ? 'white' : 'black', p = e.tool.slice(1);
    if (old && old.p === p && old.c === c) b.pieces.delete(hit.sq);
    else b.pieces.set(hit.sq, { p, c, unmoved: $('#ed-unmoved').checked && 'KRP'.includes(p) });
  }
  edRender();
}

$('#ed-palette').addEventListener('click', (ev) => {
  const b = ev.target.closest('button[data-tool]');
  if (!b) return;
  app.editor.tool = b.dataset.tool;
  edRender();
});
$('#ed-size').addEventListener('change', () => {
  const e = app.editor, n = Number($('#ed-size').value);
  e.w = n; e.h = n;
  for (const b of e.boards.values()) for (const sq of [...b.pieces.keys()]) if (FILES.indexOf(sq[0]) >= n || Number(sq.slice(1)) > n) b.pieces.delete(sq);
  resetDrawing();
  edRender();
});
$('#ed-side').addEventListener('change', () => {
  // The side to move is the colour of the last boards: every board moves by one half-turn.
  const e = app.editor, want = $('#ed-side').value, now = edState().to_move;
  if (want === now) return;
  const d = want === 'black' ? 1 : -1;
  const moved = new Map();
  for (const b of e.boards.values()) { b.t += d; moved.set(`${b.l},${b.t}`, b); }
  if ([...moved.values()].some((b) => b.t < 0)) { for (const b of e.boards.values()) b.t -= d; return; }
  const [l, t] = e.sel.split(',').map(Number);
  e.boards = moved; e.sel = `${l},${t + d}`;
  edRender();
});
$('#ed-add-board').addEventListener('click', () => {
  // The next board of the selected board's timeline, a copy of its last board.
  const e = app.editor, [l] = e.sel.split(',').map(Number);
  const last = [...e.boards.values()].filter((b) => b.l === l).sort((a, b) => b.t - a.t)[0];
  const nb = edBoard(l, last.t + 1, new Map([...last.pieces].map(([k, v]) => [k, { ...v }])));
  e.boards.set(`${l},${nb.t}`, nb); e.sel = `${l},${nb.t}`;
  edRender();
});
$('#ed-add-timeline').addEventListener('click', () => {
  // A new timeline below (positive) the others, starting with a copy of the selected board.
  const e = app.editor, src = e.boards.get(e.sel);
  const l = Math.max(...[...e.boards.values()].map((b) => b.l)) + 1;
  const nb = edBoard(l, src.t, new Map([...src.pieces].map(([k, v]) => [k, { ...v }])));
  e.boards.set(`${l},${nb.t}`, nb); e.sel = `${l},${nb.t}`;
  edRender();
});
$('#ed-remove-board').addEventListener('click', () => {
  const e = app.editor;
  if (e.boards.size <= 1) return;
  e.boards.delete(e.sel);
  e.sel = [...e.boards.keys()][0];
  resetDrawing();
  edRender();
});
$('#ed-clear').addEventListener('click', () => { const b = app.editor.boards.get(app.editor.sel); if (b) b.pieces.clear(); edRender(); });
$('#ed-standard').addEventListener('click', () => { edStandard(); resetDrawing(); edRender(); });
$('#ed-play').addEventListener('click', async () => {
  try {
    const g = await api('POST', '/api/games', { import: edFen() });
    app.editor = null;
    location.hash = `#/game/${g.id}`;
  } catch (e) { alert(e.message); }
});
$('#ed-save').addEventListener('click', () => openPuzzleDialog({ fen: edFen() }, `The editor's position, ${cap(edState().to_move)} to move.`));
$('#btn-editor').addEventListener('click', () => { location.hash = '#/editor'; });

route();
