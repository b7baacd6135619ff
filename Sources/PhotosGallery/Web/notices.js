// Short messages for the person using the gallery: what happened, what
// failed (with the server's words), in a live region screen readers read.

let region = null;

/** Shows `text` for a few seconds; `kind` is "info" or "error". */
export function notify(text, kind = 'info') {
  region ??= document.getElementById('notices');
  const notice = document.createElement('div');
  notice.className = `notice ${kind}`;
  notice.setAttribute('role', kind === 'error' ? 'alert' : 'status');
  notice.textContent = text;
  region.append(notice);
  setTimeout(() => notice.remove(), kind === 'error' ? 8000 : 4000);
}

/** Reports a failed request with the server's explanation. */
export function notifyError(error, doing) {
  const detail = error?.detail || error?.message || String(error);
  notify(doing ? `${doing}: ${detail}` : detail, 'error');
}
