// Share links for an album (owner only): create one, read-only, with an
// optional expiry and password; list them; revoke. A link opens this
// gallery as /#share=<token> (asking for its password when it has one),
// signed in as the link's client, which sees the album as it is at each
// visit and nothing else.
import { request, getData } from './api.js';
import { notifyError } from './notices.js';

export async function openShareDialog(album) {
  const dialog = document.createElement('dialog');
  dialog.className = 'share';
  dialog.innerHTML = `
    <form method="dialog">
      <h2></h2>
      <label>Expires <select name="expires">
        <option value="">Never</option><option value="1">In a day</option>
        <option value="7">In a week</option><option value="30">In a month</option>
      </select></label>
      <label>Password (optional) <input name="password" type="password" autocomplete="new-password"></label>
      <div class="buttons"><button type="button" class="primary" data-action="create">Create link</button></div>
      <p class="new-link" hidden><label>Link <input readonly name="link"></label></p>
      <h3>Links</h3>
      <ul class="links"></ul>
      <div class="buttons"><button value="close">Close</button></div>
    </form>`;
  dialog.querySelector('h2').textContent = `Share “${album.title || 'album'}”`;
  document.body.append(dialog);
  const list = dialog.querySelector('.links');
  const refresh = async () => {
    const { shares } = await getData('/v1/shares');
    list.replaceChildren(...shares.map((share) => {
      const item = document.createElement('li');
      item.textContent = `${share.label}${share.expires ? ', until ' + new Date(share.expires).toLocaleDateString() : ''}${share.hasPassword ? ', with a password' : ''} `;
      const revoke = document.createElement('button');
      revoke.type = 'button';
      revoke.textContent = 'Revoke';
      revoke.setAttribute('aria-label', `Revoke ${share.label}`);
      revoke.addEventListener('click', async () => {
        try {
          await request('DELETE', `/v1/shares/${share.id}`);
          await refresh();
        } catch (error) {
          notifyError(error, 'The link was not revoked');
        }
      });
      item.append(revoke);
      return item;
    }));
  };
  dialog.querySelector('[data-action=create]').addEventListener('click', async () => {
    const days = Number(/** @type {HTMLInputElement} */ (dialog.querySelector('[name=expires]')).value);
    const body = { album: album.id };
    if (days) body.expires = new Date(Date.now() + days * 86_400_000).toISOString();
    const password = /** @type {HTMLInputElement} */ (dialog.querySelector('[name=password]')).value;
    if (password) body.password = password;
    try {
      const { data } = await request('POST', '/v1/shares', { body });
      const field = /** @type {HTMLInputElement} */ (dialog.querySelector('[name=link]'));
      field.value = location.origin + data.path;
      field.closest('p').hidden = false;
      field.select();
      await refresh();
    } catch (error) {
      notifyError(error, 'No link was made');
    }
  });
  dialog.addEventListener('close', () => dialog.remove());
  dialog.showModal();
  await refresh().catch((error) => notifyError(error, 'Links cannot be listed'));
}
