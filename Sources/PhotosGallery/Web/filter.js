// The filter bar: a date range, the media type, favorites only, a least
// rating, a keyword, an album, and an advanced box taking PhotoKit predicate text. The simple fields
// are written as a predicate too, so the server evaluates one language;
// a predicate it refuses comes back with the position and a caret, shown
// under the box as the server wrote it.

import { MAXIMUM_RATING, stars } from './format.js';

const referenceDate = Date.UTC(2001, 0, 1) / 1000;

/** Seconds since 2001 for a yyyy-mm-dd in local time, as CAST(…, "NSDate") takes. */
function dateLiteral(text, endOfDay) {
  const [y, m, d] = text.split('-').map(Number);
  const date = new Date(y, m - 1, d + (endOfDay ? 1 : 0));
  return `CAST(${date.getTime() / 1000 - referenceDate}, "NSDate")`;
}

/** `text` as a predicate's string literal, whatever it holds. */
function quoted(text) {
  return `"${text.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/** The rating field's choices after "Any": each least rating, then "Not rated". */
function ratingOptions() {
  const options = [];
  for (let rating = 1; rating <= MAXIMUM_RATING; rating++) {
    options.push(new Option(rating === MAXIMUM_RATING ? stars(rating) : `${stars(rating)} or more`, String(rating)));
  }
  options.push(new Option('Not rated', '0'));
  return options;
}

export class FilterBar {
  constructor(form, onApply) {
    this.form = form;
    form.querySelector('select[name="rating"]').append(...ratingOptions());
    this.error = form.querySelector('.predicate-error');
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      onApply(this.value());
    });
    form.addEventListener('reset', () => {
      this.showError(null);
      setTimeout(() => onApply(this.value()), 0);
    });
  }

  /** { predicate, album, active } from the fields. */
  value() {
    const data = new FormData(this.form);
    const parts = [];
    if (data.get('from')) parts.push(`creationDate >= ${dateLiteral(data.get('from'), false)}`);
    if (data.get('to')) parts.push(`creationDate < ${dateLiteral(data.get('to'), true)}`);
    if (data.get('media')) parts.push(`mediaType == ${Number(data.get('media'))}`);
    if (data.get('favorites')) parts.push('favorite == YES');
    const rating = String(data.get('rating') ?? '');
    if (rating) parts.push(rating === '0' ? 'rating == 0' : `rating >= ${Number(rating)}`);
    const keyword = String(data.get('keyword') || '').trim();
    if (keyword) parts.push(`ANY keywords ==[c] ${quoted(keyword)}`);
    const advanced = String(data.get('predicate') || '').trim();
    if (advanced) parts.push(parts.length ? `(${advanced})` : advanced);
    const predicate = parts.join(' AND ');
    const album = data.get('album') || '';
    return { predicate, advanced, album, active: Boolean(predicate || album) };
  }

  /** Lists the albums to filter by. */
  setAlbums(albums) {
    const select = this.form.elements.album;
    const current = select.value;
    select.replaceChildren(new Option('Any album', ''), ...albums.map((a) => new Option(a.title || 'Untitled', a.id)));
    select.value = current;
  }

  /** Shows the server's refusal of the predicate (its detail has the caret line), or clears it. */
  showError(error) {
    this.error.hidden = !error;
    this.error.textContent = error ? error.detail || error.message : '';
    this.form.elements.predicate.setAttribute('aria-invalid', String(Boolean(error)));
  }
}
