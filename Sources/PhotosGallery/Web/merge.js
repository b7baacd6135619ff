// The live merge: a new summary of sections (a timeline's months, after a
// change) against the sections the grid holds. A section whose ETag is the
// same is kept as it is, with its pages and measured heights; one that
// changed is kept too, marked stale, so that its loaded pages are read again
// before anything moves on screen; a new one is made; one gone is dropped.

/**
 * @typedef {{ id: string, etag?: string | null, count: number, title?: string }} SectionSummary
 *   A section as the source's summary lists it.
 * @typedef {SectionSummary & { stale?: boolean }} HeldSection
 *   A section as the grid holds it (with more fields the merge leaves alone).
 */

/**
 * The sections to hold after `summary`, in its order, made with
 * `makeSection` where new; and those of `held` the summary no longer has.
 * @template {HeldSection} S
 * @param {S[]} held
 * @param {SectionSummary[]} summary
 * @param {(summary: SectionSummary) => S} makeSection
 * @returns {{ sections: S[], gone: S[] }}
 */
export function mergeSections(held, summary, makeSection) {
  const old = new Map(held.map((s) => [s.id, s]));
  const sections = summary.map((s) => {
    const kept = old.get(s.id);
    if (kept && kept.etag === s.etag) return kept;
    return kept ? Object.assign(kept, { count: s.count, etag: s.etag, title: s.title, stale: true }) : makeSection(s);
  });
  const gone = held.filter((s) => !sections.includes(s));
  return { sections, gone };
}
