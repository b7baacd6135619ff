// The side bar: the timeline, smart albums, the user's albums and folders
// as a tree (folders open in place), and moments. Each collection opens in
// the grid; albums and folders have their own actions (rename, delete,
// new album or folder inside, share).
import { getData, request } from './api.js';
import * as actions from './actions.js';
import { ask, choose, confirmAction } from './dialogs.js';
import { notify, notifyError } from './notices.js';

export class Sidebar {
  constructor(element, { session, open, share }) {
    this.element = element;
    this.session = session;
    this.open = open;
    this.share = share;
    this.expanded = new Set();
    this.current = 'timeline';
    /** The people listed, for the menu's merges. */
    this.people = [];
  }

  async load() {
    const canChange = !this.session.readOnly;
    const [smart, top] = await Promise.all([
      getData('/v1/smart-albums?limit=100').catch(() => ({ items: [] })),
      getData('/v1/folders?limit=1000').catch(() => ({ items: [] })),
    ]);
    const nav = document.createElement('nav');
    nav.setAttribute('aria-label', 'Library');
    nav.append(this.heading('Library'), this.list([
      this.entry({ id: 'timeline', title: this.session.isShare ? this.session.label.replace(/^share: /, '') : 'Photos', kind: 'timeline' }),
      this.entry({ id: 'map', title: 'Map', kind: 'map' }),
    ]));
    if (smart.items.length) nav.append(this.heading('Smart albums'), this.list(smart.items.map((c) => this.entry(c))));
    const albumsHeading = this.heading('Albums');
    if (canChange) {
      const add = document.createElement('span');
      add.className = 'heading-actions';
      add.append(this.button('New album', '+ Album', () => this.newAlbum(null)), this.button('New folder', '+ Folder', () => this.newFolder(null)));
      albumsHeading.append(add);
    }
    nav.append(albumsHeading, await this.tree(top.items));
    // Moments come on their own: after many changes a big library recounts them, which can take a while.
    const moments = document.createElement('details');
    const summary = document.createElement('summary');
    summary.textContent = 'Moments';
    moments.append(summary);
    moments.hidden = true;
    nav.append(moments);
    const places = document.createElement('details');
    places.className = 'places';
    const placesSummary = document.createElement('summary');
    placesSummary.textContent = 'Places';
    places.append(placesSummary);
    places.hidden = true;
    nav.append(places);
    const people = document.createElement('details');
    people.className = 'people';
    people.hidden = true;
    nav.append(people);
    this.peopleSection = people;
    const similar = document.createElement('details');
    similar.className = 'similar';
    similar.hidden = true;
    nav.append(similar);
    this.similar = similar;
    this.element.replaceChildren(nav);
    this.mark();
    getData('/v1/places').then((list) => {
      if (!list.items.length) return;
      places.append(this.places(list.items));
      places.hidden = false;
    }, () => {});
    this.loadPeople();
    this.loadSimilar();
    getData('/v1/moments?limit=50&sort=startDate:desc').then((page) => {
      if (!page.items.length) return;
      moments.append(this.list(page.items.map((c) => this.entry(c))));
      moments.hidden = false;
      this.mark();
    }, () => {});
  }

  /** Countries, each opening onto its cities with a cover and a count; a city opens its photos. */
  places(items) {
    const byCountry = new Map();
    for (const place of items) {
      if (!byCountry.has(place.country)) byCountry.set(place.country, []);
      byCountry.get(place.country).push(place);
    }
    const list = this.list([]);
    for (const [country, cities] of byCountry) {
      const item = document.createElement('li');
      const details = document.createElement('details');
      const summary = document.createElement('summary');
      summary.className = 'place-country';
      const count = document.createElement('span');
      count.className = 'count';
      count.textContent = cities.reduce((n, c) => n + c.assetCount, 0).toLocaleString();
      summary.append(country, count);
      details.append(summary, this.list(cities.map((city) => {
        const entry = this.entry({ id: `place:${city.countryCode}:${city.region}:${city.city}`, kind: 'search', search: city.search, title: city.city, estimatedAssetCount: city.assetCount });
        const cover = document.createElement('img');
        cover.className = 'place-cover';
        cover.alt = `${city.city}, ${city.country}`;
        cover.loading = 'lazy';
        cover.src = `/v1/assets/${city.cover}/thumbnail`;
        entry.querySelector('.nav-entry').prepend(cover);
        return entry;
      })));
      item.append(details);
      list.append(item);
    }
    return list;
  }

  /**
   * The people found in the photos, each with their face cropped from a
   * photo, their name (or "Unnamed") and how many photos; a person opens
   * their photos. Their menu names or hides them.
   */
  async loadPeople() {
    const element = this.peopleSection;
    const list = await getData('/v1/people').catch(() => null);
    const summary = document.createElement('summary');
    summary.textContent = 'People';
    const items = list?.items ?? [];
    this.people = items;
    element.replaceChildren(summary, this.list(items.map((person) => {
      const title = person.name || 'Unnamed';
      const entry = this.entry({ id: `person:${person.id}`, kind: 'person', person: person.id, title, estimatedAssetCount: person.assets });
      entry.classList.add('person');
      entry.querySelector('.nav-entry').prepend(faceCrop(person.keyFace, `${title}'s face`));
      if (!this.session.readOnly) entry.append(this.button(`Actions for ${title}`, '⋯', () => this.personMenu(person)));
      return entry;
    })));
    element.hidden = !items.length;
    this.mark();
  }

  async personMenu(person) {
    const choices = [{ value: 'name', title: person.name ? 'Rename' : 'Name' }, { value: 'hide', title: 'Hide from People' }];
    // Splitting: some of the faces are someone else's.
    if (person.faces > 1) choices.push({ value: 'split', title: 'Split off faces…' });
    // Merging into another person: the same person, grouped twice.
    const others = (this.people ?? []).filter((other) => other.id !== person.id);
    for (const other of others) choices.push({ value: `merge:${other.id}`, title: `The same person as ${other.name || 'Unnamed'} (${other.assets})` });
    const answer = await ask(person.name || 'Unnamed', { label: '', choices, choiceLabel: 'Action', submit: 'Go' });
    if (!answer) return;
    try {
      if (answer.choice === 'name') {
        const name = await ask('Name', { value: person.name || '', submit: 'Save' });
        if (name == null) return;
        await request('PATCH', `/v1/people/${person.id}`, { body: { name } });
      } else if (answer.choice === 'split') {
        await this.splitPerson(person);
      } else if (answer.choice === 'hide') {
        await request('PATCH', `/v1/people/${person.id}`, { body: { hidden: true } });
      } else if (answer.choice?.startsWith('merge:')) {
        const target = others.find((other) => other.id === answer.choice.slice('merge:'.length));
        await request('POST', `/v1/people/${target.id}/merge`, { body: { people: [person.id] } });
        notify('Merged into one person');
        // The person open in the grid is gone: show the one they joined.
        if (this.current === `person:${person.id}`) {
          this.current = `person:${target.id}`;
          this.open({ id: this.current, kind: 'person', person: target.id, title: target.name || 'Unnamed' });
        }
      }
    } catch (error) {
      notifyError(error, 'The person was not changed');
    }
    await this.loadPeople();
  }

  /**
   * Asks which of a person's faces are someone else's, and moves those to
   * a new person (one change to the index; the faces stay placed by hand).
   */
  async splitPerson(person) {
    const title = person.name || 'Unnamed';
    const { items } = await getData(`/v1/people/${person.id}/faces?limit=1000`);
    const options = items.map((face, index) => ({ value: face.id, label: `Face ${index + 1} of ${title}`, element: faceCrop(face, `Face ${index + 1}`) }));
    const chosen = await choose(`Which of ${title}'s faces are someone else's?`, options, { submit: 'Split off' });
    if (!chosen) return;
    if (chosen.length === items.length) {
      notify('Choose some of the faces, not all: the rest stay with this person');
      return;
    }
    await request('POST', '/v1/faces/move', { body: { faces: chosen } });
    notify(chosen.length === 1 ? 'Split off one face into a new person' : `Split off ${chosen.length} faces into a new person`);
  }

  /**
   * Photos that look alike, group by group, the one suggested to keep
   * first; a photo's button keeps it and moves the rest of its group to
   * Recently Deleted, where they can be put back. A group's own buttons
   * stack it (one burst, the suggested photo shown, nothing deleted) or
   * say its photos are not alike (never listed together again).
   */
  async loadSimilar() {
    const element = this.similar;
    const list = await getData('/v1/similar').catch(() => null);
    const summary = document.createElement('summary');
    summary.textContent = 'Look-alikes';
    if (list?.items.length) {
      const count = document.createElement('span');
      count.className = 'count';
      count.textContent = list.items.length.toLocaleString();
      summary.append(count);
    }
    element.replaceChildren(summary, ...(list?.items ?? []).map((group, index) => this.similarGroup(group, index)));
    element.hidden = !list?.items.length;
  }

  similarGroup(group, index) {
    const item = document.createElement('div');
    item.className = 'similar-group';
    item.setAttribute('role', 'group');
    item.setAttribute('aria-label', `Look-alikes ${index + 1}`);
    for (const id of group.assets) {
      const suggested = id === group.suggested;
      const keep = document.createElement('button');
      keep.type = 'button';
      keep.className = 'similar-photo' + (suggested ? ' suggested' : '');
      keep.dataset.id = id;
      keep.disabled = this.session.readOnly;
      keep.title = this.session.readOnly ? 'This token cannot change the library'
        : `Keep this one; move the other ${group.assets.length - 1} to Recently Deleted`;
      const image = document.createElement('img');
      image.alt = suggested ? 'The photo suggested to keep' : 'A photo that looks like it';
      image.loading = 'lazy';
      image.src = `/v1/assets/${id}/thumbnail`;
      keep.append(image);
      keep.addEventListener('click', () => this.keepSimilar(id, group.assets.length - 1));
      item.append(keep);
    }
    if (!this.session.readOnly) {
      const actions = document.createElement('div');
      actions.className = 'similar-actions';
      actions.append(
        this.button(`Stack look-alikes ${index + 1}: show the suggested one, keep the others in its burst`, 'Stack',
          () => this.resolveSimilar('stack', { keep: group.suggested }, `Stacked ${group.assets.length} photos; one is shown`)),
        this.button(`Look-alikes ${index + 1} are not alike`, 'Not alike',
          () => this.resolveSimilar('dismiss', { asset: group.suggested }, 'They will not be listed together again')));
      item.append(actions);
    }
    return item;
  }

  /** Stacks or dismisses a group (`/v1/similar/stack|dismiss`), then lists the look-alikes again. */
  async resolveSimilar(action, body, done) {
    try {
      await request('POST', `/v1/similar/${action}`, { body });
      notify(done);
    } catch (error) {
      notifyError(error, 'The look-alikes were not changed');
    }
    await this.loadSimilar();
  }

  async keepSimilar(id, others) {
    try {
      await request('POST', '/v1/similar/keep', { body: { keep: id } });
      notify(`Kept one; ${others} moved to Recently Deleted`);
    } catch (error) {
      notifyError(error, 'The look-alikes were not tidied');
    }
    await this.loadSimilar();
  }

  async tree(items) {
    const list = this.list([]);
    list.setAttribute('role', 'tree');
    for (const item of items) {
      const entry = this.entry(item);
      if (item.kind === 'collectionList') {
        entry.setAttribute('aria-expanded', String(this.expanded.has(item.id)));
        if (this.expanded.has(item.id)) {
          const children = await getData(`/v1/folders/${item.id}/children?limit=1000`).catch(() => ({ items: [] }));
          entry.append(await this.tree(children.items));
        }
      }
      list.append(entry);
    }
    return list;
  }

  entry(collection) {
    const item = document.createElement('li');
    item.dataset.id = collection.id;
    const link = document.createElement('button');
    link.type = 'button';
    link.className = 'nav-entry';
    link.dataset.title = collection.title || '';
    link.textContent = (collection.kind === 'collectionList' ? (this.expanded.has(collection.id) ? '▾ ' : '▸ ') : '') + (collection.title || 'Untitled');
    if (collection.estimatedAssetCount != null) {
      const count = document.createElement('span');
      count.className = 'count';
      count.textContent = collection.estimatedAssetCount.toLocaleString();
      link.append(count);
    }
    link.addEventListener('click', () => {
      if (collection.kind === 'collectionList') {
        if (this.expanded.has(collection.id)) this.expanded.delete(collection.id);
        else this.expanded.add(collection.id);
        this.load();
      } else {
        this.current = collection.id;
        this.mark();
        this.open(collection);
      }
    });
    item.append(link);
    const isUsers = collection.kind === 'collectionList' || (collection.kind === 'assetCollection' && collection.type === 'album');
    if (isUsers && !this.session.readOnly) item.append(this.button(`Actions for ${collection.title}`, '⋯', () => this.menu(collection)));
    return item;
  }

  async menu(collection) {
    const folder = collection.kind === 'collectionList';
    const choices = [{ value: 'rename', title: 'Rename' }];
    if (folder) choices.push({ value: 'album', title: 'New album inside' }, { value: 'folder', title: 'New folder inside' });
    else if (this.session.isOwner) choices.push({ value: 'share', title: 'Share…' });
    choices.push({ value: 'delete', title: 'Delete' });
    const answer = await ask(collection.title || 'Album', { label: '', choices, choiceLabel: 'Action', submit: 'Go' });
    if (!answer) return;
    try {
      if (answer.choice === 'rename') {
        const title = await ask('Rename', { value: collection.title || '', submit: 'Rename' });
        if (title) await (folder ? actions.renameFolder(collection.id, title) : actions.renameAlbum(collection.id, title));
      } else if (answer.choice === 'album') {
        await this.newAlbum(collection.id);
      } else if (answer.choice === 'folder') {
        await this.newFolder(collection.id);
      } else if (answer.choice === 'share') {
        this.share(collection);
      } else if (answer.choice === 'delete' && await confirmAction(`Delete “${collection.title}”? Its photos stay in the library.`, 'Delete')) {
        await (folder ? actions.deleteFolder(collection.id) : actions.deleteAlbum(collection.id));
      }
    } catch (error) {
      notifyError(error, 'Not changed');
    }
  }

  async newAlbum(folder, ids = []) {
    const title = await ask('New album', { submit: 'Create' });
    if (!title) return null;
    try {
      if (folder) this.expanded.add(folder);
      return await actions.createAlbum(title, ids, folder);
    } catch (error) {
      notifyError(error, 'The album was not created');
      return null;
    }
  }

  async newFolder(folder) {
    const title = await ask('New folder', { submit: 'Create' });
    if (!title) return;
    try {
      if (folder) this.expanded.add(folder);
      await actions.createFolder(title, folder);
    } catch (error) {
      notifyError(error, 'The folder was not created');
    }
  }

  /** Highlights the open entry. */
  mark() {
    for (const item of this.element.querySelectorAll('li')) {
      const current = item.dataset.id === this.current;
      item.firstChild.toggleAttribute('aria-current', current);
    }
  }

  heading(text) {
    const heading = document.createElement('h2');
    heading.className = 'nav-heading';
    heading.textContent = text;
    return heading;
  }

  list(items) {
    const list = document.createElement('ul');
    list.append(...items);
    return list;
  }

  button(label, text, action) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'small';
    button.textContent = text;
    button.setAttribute('aria-label', label);
    button.title = label;
    button.addEventListener('click', (event) => {
      event.stopPropagation();
      action();
    });
    return button;
  }
}

/** The size, in CSS pixels, of a face cropped for the side bar. */
const faceSide = 32;

/**
 * A face cut from its photo: a square around its box (fractions of the
 * image, origin top left), half as wide again, read from the thumbnail, or
 * from the preview when the face is small in its photo.
 */
export function faceCrop(face, label) {
  const frame = document.createElement('span');
  frame.className = 'face-crop';
  const image = document.createElement('img');
  image.alt = label;
  image.loading = 'lazy';
  image.addEventListener('load', () => {
    const { naturalWidth: width, naturalHeight: height } = image;
    const side = Math.min(Math.max(face.box.width * width, face.box.height * height) * 1.5, width, height);
    const left = Math.min(Math.max((face.box.x + face.box.width / 2) * width - side / 2, 0), width - side);
    const top = Math.min(Math.max((face.box.y + face.box.height / 2) * height - side / 2, 0), height - side);
    const scale = faceSide / side;
    image.style.width = `${width * scale}px`;
    image.style.height = `${height * scale}px`;
    image.style.transform = `translate(${-left * scale}px, ${-top * scale}px)`;
  });
  image.src = `/v1/assets/${face.asset}/${Math.max(face.box.width, face.box.height) < 0.1 ? 'preview' : 'thumbnail'}`;
  frame.append(image);
  return frame;
}
