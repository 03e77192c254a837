// The two ways a render fails that a caller must tell apart: the document cannot be printed (the caller's input:
// a 4xx with this message as `detail`), or the renderer cannot run (Chromium missing or broken: a 5xx/503 of ours).

/** The XML is not an authorized NF-e (nfeProc) or NFS-e, or misses what the layout must print. */
export class UnrenderableDocumentError extends Error {
  override readonly name = 'UnrenderableDocumentError';
}

/** No Chromium at the configured path; the message says how to install it or where to point CHROMIUM_PATH. */
export class ChromiumUnavailableError extends Error {
  override readonly name = 'ChromiumUnavailableError';
}

/** The renderer was closed, or Chromium failed again after its relaunch. */
export class RendererFailedError extends Error {
  override readonly name = 'RendererFailedError';
}
