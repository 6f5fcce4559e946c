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
  userMoved: false,
  layoutKey: '',
  clockBase: null,
};

async function api(method, url, body) {
  // Hook (online.js): the seat token of the game the request is about.
  const opts = { method, headers: { ...(window.chess5dOnline?.headers(url, method) ?? {}) } };
  if (body !== undefined || method !== 'GET') opts.headers['Content-Type'] = 'application/json';
  if (body !== undefined) opts.body = JSON.stringify(body);
  const res = await fetch(url, opts);
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = { error: text }; }
  if (!res.ok) throw new Error((data && data.error) || `HTTP ${res.status}`);
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
  const m = location.hash.match(/^#\/game\/(\d+)/);
  if (m) openGame(Number(m[1]));
  else showHome();
}
window.addEventListener('hashchange', route);

async function showHome() {
  closeWs();
  app.state = null;
  $('#play').classList.add('hidden');
  $('#home').classList.remove('hidden');
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
    $(`#ng-${side}-bot`).innerHTML = app.info.bots.map((b) => `<option value="${esc(b)}">${esc(b)}</option>`).join('');
  }
}

async function refreshGames() {
  const { games } = await api('GET', '/api/games');
  $('#games-table tbody').innerHTML = games.map((g) => `<tr data-game="${g.id}">
    <td>${g.id}</td><td>${esc(g.white)}</td><td>${esc(g.black)}</td><td>${esc(g.puzzle ? 'Puzzle: ' + g.puzzle : g.variant)}</td>
    <td>${esc(g.result)}${g.termination ? ' <small>(' + esc(g.termination) + ')</small>' : ''}</td><td>${g.actions}</td><td>${esc(g.created)}</td>
    <td><button type="button" data-open="${g.id}" aria-label="Open game ${g.id}">${g.result === '*' ? 'Resume' : 'Open'}</button><button type="button" data-delete="${g.id}" aria-label="Delete game ${g.id}">Delete</button></td></tr>`).join('')
    || '<tr><td colspan="8">No saved games yet.</td></tr>';
}

async function refreshPuzzles() {
  const { puzzles } = await api('GET', '/api/puzzles');
  $('#puzzles-table tbody').innerHTML = puzzles.map((p) => `<tr data-puzzle="${esc(p.id)}">
    <td>${esc(p.name)}</td><td>${esc(p.to_move)}</td><td>${p.mate_in ?? '?'}</td><td class="status-${esc(p.status)}">${esc(p.status)}</td>
    <td><button type="button" data-puzzle-start="${esc(p.id)}" aria-label="Start puzzle ${esc(p.name)}">Start</button></td></tr>`).join('');
}

$('#games-table').addEventListener('click', async (ev) => {
  const b = ev.target.closest('button');
  if (!b) return;
  if (b.dataset.open) location.hash = `#/game/${b.dataset.open}`;
  if (b.dataset.delete) {
    try { await api('DELETE', `/api/games/${b.dataset.delete}`); } catch (e) { alert(e.message); }
    refreshGames();
  }
});

$('#puzzles-table').addEventListener('click', async (ev) => {
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

$('#btn-export').addEventListener('click', () => {
  if (!app.state) return;
  $('#export-text').value = app.state.pgn;
  $('#export-dialog').showModal();
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
  a.download = `chess5d-game-${app.state ? app.state.id : 'x'}.5dpgn`;
  document.body.appendChild(a);
  a.click();
  a.remove();
});

// ---------- game ----------

async function openGame(id) {
  $('#home').classList.add('hidden');
  $('#play').classList.remove('hidden');
  if (!app.state || app.state.id !== id) {
    app.state = null;
    app.review = null;
    app.userMoved = false;
    app.layoutKey = '';
    app.selected = null;
    app.dests.clear();
    resetDrawing();
  }
  showError(null);
  try {
    setState(await api('GET', `/api/games/${id}`));
  } catch (e) {
    showError(e.message);
    return;
  }
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
  if (!s) return;
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
      out.push(`<text class="coord ${(left + yy) % 2 === 0 ? 'on-dark' : 'on-light'}" x="2" y="${sy + 9}">${yy + 1}</text>`);
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
  // Timeline rows and labels.
  for (const tl of s.timelines) {
    const y = L.row(tl.l) + L.h / 2;
    const x1 = L.left + L.col(tl.start), x2 = L.left + L.col(tl.end) + L.w;
    parts.push(`<line class="tl-line" x1="${x1}" y1="${y}" x2="${x2}" y2="${y}"/>`);
    if (tl.origin) {
      const ox = L.left + L.col(tl.origin.t) + L.w / 2, oy = L.row(tl.origin.l) + L.h / 2;
      parts.push(`<path class="tl-line" fill="none" d="M${ox} ${oy} C${ox + L.w} ${oy} ${x1 - L.w} ${y} ${x1} ${y}"/>`);
    }
    parts.push(`<text class="tl-label ${tl.active ? '' : 'inactive'}" x="${L.left + L.col(tl.start) - 22}" y="${y + 6}" text-anchor="end">L${esc(tl.label)}</text>`);
  }
  // Present.
  const rows = L.maxL - L.minL + 1;
  const px = L.left + L.col(s.present.t) - L.gx / 3;
  parts.push(`<rect class="present-line" x="${px}" y="${-L.gy / 2}" width="${L.w + (2 * L.gx) / 3}" height="${rows * (L.h + L.gy)}" rx="10"/>`);
  // Turn labels.
  for (let t = L.minT; t <= L.maxT; t++) {
    parts.push(`<text class="turn-label" x="${L.left + L.col(t) + L.w / 2}" y="${-L.gy / 2 - 6}" text-anchor="middle">T${Math.floor(t / 2)}${t % 2 ? 'b' : 'w'}</text>`);
  }
  $('#bg-layer').innerHTML = parts.join('');
  const arrows = [];
  for (const m of s.last_action) arrows.push(arrow(s, L, m, 'last', 'arrow-last'));
  for (const m of s.pending) arrows.push(arrow(s, L, m, 'pending', 'arrow-pending'));
  if (s.check) arrows.push(arrow(s, L, { from: s.check.from, to: s.check.to }, 'check', 'arrow-check'));
  $('#arrow-layer').innerHTML = arrows.join('');
  app.bounds = { x: -20, y: -L.gy - 10, w: L.left + L.col(L.maxT) + L.w + L.gx + 20, h: rows * (L.h + L.gy) + L.gy };
  const key = `${s.id}:${L.minT}:${L.maxT}:${L.minL}:${L.maxL}:${app.flip}`;
  if (key !== app.layoutKey) {
    app.layoutKey = key;
    if (!app.userMoved) fitAll();
  }
  computeHighlights();
  drawBoards();
  renderSide();
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
    if (s.check) { put(existing(s, s.check.from), 'check-from'); put(existing(s, s.check.to), 'check-royal'); }
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
        if (!app.userMoved) fitAll(); else setViewBox();
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
function setViewBox() {
  if (draw.scheduled) return;
  draw.scheduled = true;
  requestAnimationFrame(() => {
    draw.scheduled = false;
    const v = app.vb;
    $('#view').setAttribute('viewBox', `${v.x} ${v.y} ${v.w} ${v.h}`);
    drawBoards();
  });
}

function resetDrawing() {
  for (const el of draw.shown.values()) el.remove();
  draw.shown.clear();
  draw.cache.clear();
}

function fitAll() {
  if (!app.bounds) return;
  const ar = viewSize().w / viewSize().h;
  let { x, y, w, h } = app.bounds;
  x -= w * 0.02; y -= h * 0.02; w *= 1.04; h *= 1.04;
  if (w / h < ar) { const nw = h * ar; x -= (nw - w) / 2; w = nw; } else { const nh = w / ar; y -= (nh - h) / 2; h = nh; }
  app.vb = { x, y, w, h };
  setViewBox();
}

/** Centres the view on the board (l, t) (timeline and half-turn indices) at a readable size. */
function showBoard(l, t) {
  const L = app.layout;
  if (!L) return;
  const ar = viewSize().w / viewSize().h;
  const h = (L.h + L.gy) * 2.5, w = h * ar;
  const cx = L.left + L.col(t) + L.w / 2, cy = L.row(l) + L.h / 2;
  app.vb = { x: cx - w / 2, y: cy - h / 2, w, h };
  app.userMoved = true;
  setViewBox();
}
window.__chess5dShow = showBoard;

function goPresent() {
  const s = app.shown, L = app.layout;
  if (!s || !L) return;
  const ar = viewSize().w / viewSize().h;
  const h = Math.min(app.bounds.h, (L.h + L.gy) * 4);
  const w = h * ar;
  const cx = L.left + L.col(s.present.t) + L.w / 2;
  app.vb = { x: cx - w / 2, y: app.bounds.y + (app.bounds.h - h) / 2, w, h };
  app.userMoved = true;
  setViewBox();
}

function zoomAt(factor, px, py) {
  const v = app.vb;
  const nw = Math.min(Math.max(v.w * factor, 80), 400000), f = nw / v.w;
  app.vb = { x: px - (px - v.x) * f, y: py - (py - v.y) * f, w: nw, h: v.h * f };
  app.userMoved = true;
  setViewBox();
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
  if (!s) return;
  document.title = `chess5d game ${s.id}`;
  for (const side of ['white', 'black']) {
    const p = $(`#p-${side}`);
    p.querySelector('.name').textContent = s.players[side].display;
    p.classList.toggle('to-move', !s.result && s.to_move === side);
  }
  renderClocks();
  const live = app.review === null;
  $('#btn-submit').disabled = !(live && s.human_to_move && s.can_submit);
  $('#btn-undo').disabled = !(live && s.human_to_move && s.pending.length > 0);
  $('#btn-resign').disabled = !!s.result;
  let status;
  if (s.result) status = 'Game over.';
  else if (s.engine_busy && !s.human_to_move) status = `${cap(s.to_move)} (engine) is thinking…`;
  else {
    status = `${cap(s.to_move)} to move. Present: T${s.present.turn} ${s.present.color}.`;
    if (s.check) status += ' Check!';
    if (s.human_to_move && !s.can_submit && s.submit_error) status += ` (${s.submit_error})`;
  }
  if (s.engine_info && !s.result) status += ` [${s.engine_info}]`;
  if (s.puzzle) status = `Puzzle “${s.puzzle.name}”: ${cap(s.puzzle.solver)} mates in ${s.puzzle.mate_in}. Status: ${s.puzzle.status}. ` + status;
  $('#status').textContent = status;
  // An engine that failed (crash, timeout, illegal answer): say so and offer a restart.
  const ep = $('#engine-problem');
  ep.classList.toggle('hidden', !(s.engine_error && !s.result));
  ep.querySelector('span').textContent = s.engine_error ? `${s.engine_error} ` : '';
  const go = $('#gameover');
  if (s.result) {
    const winner = s.result === '1-0' ? 'White wins' : s.result === '0-1' ? 'Black wins' : 'Draw';
    const how = { checkmate: 'Checkmate', stalemate: 'Stalemate', resignation: 'Resignation', time: 'Time forfeit' }[s.termination] || cap(s.termination || 'Finished');
    let text = `${how}: ${winner} (${s.result})`;
    if (s.puzzle) text += s.puzzle.status === 'solved' ? ' — Puzzle solved!' : ' — Puzzle failed.';
    go.textContent = text;
    go.classList.remove('hidden');
  } else go.classList.add('hidden');
  const rb = $('#review-bar');
  if (!live) { rb.classList.remove('hidden'); rb.querySelector('span').textContent = `Reviewing the position after action ${app.review} of ${s.action_count}.`; } else rb.classList.add('hidden');
  // Notation, one line per turn.
  const rows = [];
  let cur = null;
  for (const a of s.actions) {
    if (!cur || a.color === 'white') { cur = { turn: a.number, items: [] }; rows.push(cur); }
    cur.items.push(a);
  }
  const curIdx = app.review ?? s.action_count;
  $('#notation').innerHTML = rows.map((r) => `<li value="${r.turn}">${r.items.map((a) =>
    `<span class="act ${a.index === curIdx ? 'current' : ''}" data-index="${a.index}" role="button" tabindex="0">${esc(a.text)}</span>`).join(' / ')}</li>`).join('');
  const curEl = $('#notation .current');
  if (curEl) curEl.scrollIntoView({ block: 'nearest' });
  void shown;
  window.chess5dOnline?.onState(s); // hook: seat, links, draw offers; spectators' buttons off
}

function cap(s) { return s ? s[0].toUpperCase() + s.slice(1) : s; }

$('#notation').addEventListener('click', (ev) => {
  const a = ev.target.closest('.act');
  if (a) setReview(Number(a.dataset.index)).catch((e) => showError(e.message));
});
$('#btn-live').addEventListener('click', () => setReview(null));
document.addEventListener('keydown', (ev) => {
  if (!app.state || $('#play').classList.contains('hidden') || ev.target.closest('input, textarea, select, dialog')) return;
  const cur = app.review ?? app.state.action_count;
  if (ev.key === 'ArrowLeft') { ev.preventDefault(); setReview(cur - 1); }
  else if (ev.key === 'ArrowRight') { ev.preventDefault(); setReview(cur + 1); }
  else if (ev.key === 'Home') { ev.preventDefault(); setReview(0); }
  else if (ev.key === 'End') { ev.preventDefault(); setReview(null); }
  else if (ev.key === 'Escape') { app.selected = null; app.dests.clear(); applyHighlights(); hidePromotion(); }
});

// ---------- interaction ----------

async function act(path, body) {
  const s = app.state;
  try {
    showError(null);
    setState(await api('POST', `/api/games/${s.id}/${path}`, body));
  } catch (e) {
    showError(e.message);
  }
}

$('#btn-submit').addEventListener('click', () => act('submit'));
$('#btn-undo').addEventListener('click', () => act('undo'));
$('#btn-retry').addEventListener('click', () => act('retry-engine'));
$('#btn-resign').addEventListener('click', () => { if (confirm('Resign this game?')) act('resign', {}); });
$('#btn-flip').addEventListener('click', () => { app.flip = !app.flip; render(); fitAll(); });
$('#btn-fit').addEventListener('click', () => { app.userMoved = false; fitAll(); });
$('#btn-present').addEventListener('click', goPresent);
$('#btn-zoom-in').addEventListener('click', () => { const v = app.vb; zoomAt(0.8, v.x + v.w / 2, v.y + v.h / 2); });
$('#btn-zoom-out').addEventListener('click', () => { const v = app.vb; zoomAt(1.25, v.x + v.w / 2, v.y + v.h / 2); });

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
  const s = app.state;
  return !!s && app.review === null && s.human_to_move && !s.result && (window.chess5dOnline?.mayMove(s) ?? true);
}

/** Selects the piece on (l, t, sq) and asks the server for its destinations. */
function select(l, t, sq) {
  const s = app.state;
  app.selected = { l, t, sq };
  app.dests.clear();
  applyHighlights();
  const version = s.version;
  const p = api('GET', `/api/games/${s.id}/moves?l=${l}&t=${t}&square=${sq}`).then((r) => {
    if (!app.selected || app.selected.l !== l || app.selected.t !== t || app.selected.sq !== sq || app.state.version !== version) return;
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
  const s = app.state;
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
    press = { x: ev.clientX, y: ev.clientY, vb: { ...app.vb }, moved: false, hit, mode: 'pan' };
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
      if (press.mode === 'dest') press.mode = 'pan';
      if (press.mode === 'pan') { svg.setPointerCapture(ev.pointerId); svg.classList.add('dragging'); }
      else svg.classList.add('carrying');
    }
    if (press.mode === 'piece') { showGhost(ev); return; }
    const r = svg.getBoundingClientRect();
    const scale = Math.min(r.width / press.vb.w, r.height / press.vb.h);
    app.vb = { ...press.vb, x: press.vb.x - dx / scale, y: press.vb.y - dy / scale };
    app.userMoved = true;
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

route();
