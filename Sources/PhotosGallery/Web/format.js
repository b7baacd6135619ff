// How the gallery words dates, durations and assets. Each date format is
// built once: a Date's toLocaleString with options builds a new formatter
// on every call (about 0.3 ms in Chromium), which for a screenful of new
// cells was most of a frame.

const dateAndTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'long', timeStyle: 'short' });
const fullDateAndTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'full', timeStyle: 'short' });
const weekdayAndDate = new Intl.DateTimeFormat(undefined, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
const monthName = new Intl.DateTimeFormat(undefined, { month: 'long' });

/**
 * The most stars an asset may have (PHAsset.Rating's five; the API's
 * `rating` runs from 0, none, to this). Every rating control, key and
 * filter in the gallery is made from it.
 */
export const MAXIMUM_RATING = 5;

/**
 * The Live Photo effects (the API's `playbackVariation`, PhotoKit's case
 * names) as Photos names them, and whether each moves: Loop and Bounce play
 * over and over; Long Exposure is a still. `none` is a Live Photo as taken.
 */
export const LIVE_PHOTO_EFFECTS = {
  none: { name: 'Live', moves: false },
  autoloop: { name: 'Loop', moves: true },
  mirror: { name: 'Bounce', moves: true },
  longExposure: { name: 'Long Exposure', moves: false },
};

/** The rating a key sets ("0" clears it), or null for any other key. */
export function ratingForKey(key) {
  const rating = /^[0-9]$/.test(key) ? Number(key) : -1;
  return rating >= 0 && rating <= MAXIMUM_RATING ? rating : null;
}

/**
 * What a cell or the viewer says an asset is: "Photo, favorite, 4 stars,
 * 17 May 2024 at 10:02". `date` may be null; `rating` 0 (none) to
 * MAXIMUM_RATING.
 */
export function describeAsset(mediaType, favorite, date, rating = 0) {
  const kind = mediaType === 'video' ? 'Video' : mediaType === 'audio' ? 'Audio' : 'Photo';
  const rated = rating ? `, ${rating} star${rating === 1 ? '' : 's'}` : '';
  return `${kind}${favorite ? ', favorite' : ''}${rated}, ${date ? dateAndTime.format(date) : 'without a date'}`;
}

/** A rating as stars: 3 → "★★★"; 0 → "". */
export function stars(rating) {
  return '★'.repeat(rating);
}

const fullDateAndTimeUTC = new Intl.DateTimeFormat(undefined, { dateStyle: 'full', timeStyle: 'short', timeZone: 'UTC' });

/**
 * The viewer's date: "Friday 17 May 2024 at 10:02", as the clock read
 * where it was taken when `utcOffset` (seconds east of UTC) is known, so
 * that a photo taken at 00:30 in Paris says 00:30 wherever it is seen.
 */
export function formatFullDate(date, utcOffset) {
  if (utcOffset === null || utcOffset === undefined) return fullDateAndTime.format(date);
  return fullDateAndTimeUTC.format(new Date(date.getTime() + utcOffset * 1000));
}

/** A day's title: "Friday 17 May 2024" (month from 1). */
export function formatDay(year, month, day) {
  return weekdayAndDate.format(new Date(year, month - 1, day));
}

/** A month's name: 5 → "May". */
export function formatMonth(month) {
  return monthName.format(new Date(2000, month - 1, 1));
}

/** 75.4 → "1:15". */
export function formatDuration(seconds) {
  const total = Math.round(seconds || 0);
  const h = Math.floor(total / 3600), m = Math.floor((total % 3600) / 60), s = total % 60;
  return (h ? `${h}:${String(m).padStart(2, '0')}` : `${m}`) + ':' + String(s).padStart(2, '0');
}
