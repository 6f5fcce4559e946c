// The page's back-end (the interface is described at the top of remote.js): the local one when
// the static site's config.js set window.CHESS5D_BACKEND = 'local', else the server's.
const chosen = window.CHESS5D_BACKEND === 'local' ? import('./local.js') : import('./remote.js');
export const backend = (await chosen).backend;
// For scripts (and the static site's tests): the back-end in use.
window.chess5dBackend ??= Promise.resolve(backend);
export default backend;
