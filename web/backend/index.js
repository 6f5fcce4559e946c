// The page's back-end (the interface is described at the top of remote.js): the local one when
// the static site's config.js set window.CHESS5D_BACKEND = 'local', else the server's. The router
// (app.js) opens it once and passes it in to what needs it.

/** Opens the back-end door this build uses. @returns {Promise<import('../types/backend.js').Backend>} */
export async function openBackend() {
  const chosen = window.CHESS5D_BACKEND === 'local' ? import('./local.js') : import('./remote.js');
  const { backend } = await chosen;
  // For scripts (and the static site's tests): the back-end in use.
  window.chess5dBackend ??= Promise.resolve(backend);
  return backend;
}
