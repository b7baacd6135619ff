// Uploads by the tus 1.0 protocol (/v1/uploads): files dropped on the
// window (folders included) or picked, each with its progress bar and an
// overall one. Bytes go in chunks; after a dropped connection the upload
// asks the server how much arrived (HEAD) and goes on from there, and an
// upload interrupted by closing the page resumes when the same file is
// added again. A file the library already holds (same content hash) is
// reported and not sent. Each finished file becomes an asset in a change
// block; a photo and a video picked together under one name (IMG_0001.HEIC
// and IMG_0001.MOV, as an iPhone's Live Photo is exported) go in one block,
// where the server makes them one Live Photo when they carry the same
// content identifier.
import { csrfHeaders, ApiError } from './api.js';
import { createAssets } from './actions.js';
import { contentHash } from './xxh3.js';
import { notify } from './notices.js';

const chunkSize = 4 << 20;
const retries = 30;

export class Uploader {
  constructor(panel) {
    this.panel = panel;
    this.queue = [];
    this.running = 0;
    this.totals = { bytes: 0, sent: 0 };
  }

  /** Adds files to upload, two at a time. */
  add(files) {
    if (!files.length) return;
    this.panel.hidden = false;
    if (!this.overall) this.build();
    const jobs = [];
    for (const file of files) {
      const row = this.row(file);
      this.totals.bytes += file.size;
      jobs.push({ file, row, sent: 0 });
    }
    pairLivePhotos(jobs);
    this.queue.push(...jobs);
    this.updateOverall();
    this.pump();
  }

  build() {
    const heading = document.createElement('h2');
    heading.textContent = 'Uploads';
    this.overall = document.createElement('progress');
    this.overall.className = 'overall';
    this.overall.setAttribute('aria-label', 'All uploads');
    this.overallText = document.createElement('p');
    this.list = document.createElement('ul');
    const close = document.createElement('button');
    close.type = 'button';
    close.textContent = 'Close';
    close.addEventListener('click', () => { this.panel.hidden = true; });
    this.panel.append(heading, this.overall, this.overallText, this.list, close);
  }

  row(file) {
    const item = document.createElement('li');
    item.className = 'upload';
    const name = document.createElement('span');
    name.className = 'name';
    name.textContent = file.webkitRelativePath || file.name;
    const bar = document.createElement('progress');
    bar.max = Math.max(1, file.size);
    bar.value = 0;
    bar.setAttribute('aria-label', `Upload of ${file.name}`);
    const status = document.createElement('span');
    status.className = 'status';
    status.textContent = 'Waiting';
    item.append(name, bar, status);
    this.list.append(item);
    return { item, bar, status };
  }

  pump() {
    while (this.running < 2 && this.queue.length) {
      const job = this.queue.shift();
      this.running += 1;
      this.upload(job).finally(() => {
        this.running -= 1;
        this.pump();
        if (!this.running && !this.queue.length) notify('Uploads finished');
      });
    }
  }

  async upload(job) {
    const { file, row } = job;
    try {
      row.status.textContent = 'Checking';
      const hash = await contentHash(file);
      const location = await this.create(file, hash);
      if (location.duplicateOf) {
        this.progress(job, file.size);
        row.item.classList.add('duplicate');
        row.status.textContent = 'Already in the library';
        return this.ended(job, null);
      }
      await this.send(job, location.url);
      await this.ended(job, location.url.split('/').pop());
    } catch (error) {
      fail(row, error);
      if (job.pair && !job.pair.ended.has(job)) await this.ended(job, null);
    }
  }

  /**
   * A job is done sending (`upload` its finished upload's id), or has
   * nothing to add (null). Alone, its upload becomes an asset now; one of
   * a pair waits for the other, and the second to end adds both in one block.
   */
  async ended(job, upload) {
    const jobs = job.pair ? [job.pair.photo, job.pair.video] : [job];
    if (job.pair) {
      job.pair.ended.set(job, upload);
      if (job.pair.ended.size < 2) {
        if (upload) job.row.status.textContent = 'Waiting for its Live Photo pair';
        return;
      }
    }
    const ready = jobs.filter((j) => (job.pair ? job.pair.ended.get(j) : upload));
    if (!ready.length) return;
    const uploads = ready.map((j) => (job.pair ? job.pair.ended.get(j) : upload));
    ready.forEach((j) => { j.row.status.textContent = 'Adding'; });
    try {
      const committed = await createAssets(uploads);
      ready.forEach((j, index) => {
        localStorage.removeItem(storageKey(j.file));
        j.row.item.classList.add('done');
        j.row.item.dataset.asset = committed.created[`#${index}`] || '';
        j.row.status.textContent = 'Added';
      });
    } catch (error) {
      ready.forEach((j) => fail(j.row, error));
    }
  }

  /** The upload's URL: one this browser began for the same file, or a new one; or the duplicate it is. */
  async create(file, hash) {
    const kept = localStorage.getItem(storageKey(file));
    if (kept) {
      const offset = await this.offset(kept).catch(() => null);
      if (offset !== null) return { url: kept };
      localStorage.removeItem(storageKey(file));
    }
    const metadata = [['filename', file.name]];
    if (hash) metadata.push(['contentHash', hash]);
    const response = await fetch('/v1/uploads', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { ...csrfHeaders(), 'Tus-Resumable': '1.0.0', 'Upload-Length': String(file.size),
                 'Upload-Metadata': metadata.map(([k, v]) => `${k} ${btoa(unescape(encodeURIComponent(v)))}`).join(',') },
    });
    if (response.status === 200) return { duplicateOf: (await response.json()).duplicateOf };
    if (response.status !== 201) throw await problem(response);
    const url = response.headers.get('Location');
    localStorage.setItem(storageKey(file), url);
    return { url };
  }

  async offset(url) {
    const response = await fetch(url, { method: 'HEAD', credentials: 'same-origin', headers: { 'Tus-Resumable': '1.0.0' } });
    if (!response.ok) throw new ApiError(response.status, { title: 'The upload is gone' });
    return Number(response.headers.get('Upload-Offset'));
  }

  /** Sends the file from where the server has it, resuming after failures. */
  async send(job, url) {
    const { file, row } = job;
    let offset = await this.offset(url);
    let failures = 0;
    while (offset < file.size) {
      row.status.textContent = failures ? 'Resuming' : 'Uploading';
      this.progress(job, offset);
      try {
        offset = await this.patch(url, file, offset, (sent) => this.progress(job, offset + sent));
        failures = 0;
      } catch (error) {
        if (error instanceof ApiError && error.status && error.status !== 409) throw error;
        if (++failures > retries) throw error;
        row.status.textContent = 'Connection lost, retrying';
        await new Promise((resolve) => setTimeout(resolve, Math.min(10_000, 250 * 2 ** Math.min(failures, 6))));
        offset = await this.offset(url).catch(() => offset);
      }
    }
    this.progress(job, file.size);
  }

  patch(url, file, offset, onProgress) {
    return new Promise((resolve, reject) => {
      const request = new XMLHttpRequest();
      request.open('PATCH', url);
      for (const [name, value] of Object.entries({ ...csrfHeaders(), 'Tus-Resumable': '1.0.0', 'Upload-Offset': String(offset),
                                                   'Content-Type': 'application/offset+octet-stream' })) {
        request.setRequestHeader(name, value);
      }
      request.upload.onprogress = (event) => onProgress(event.loaded);
      request.onload = () => {
        if (request.status === 204) resolve(Number(request.getResponseHeader('Upload-Offset')));
        else {
          let body = {};
          try { body = JSON.parse(request.responseText); } catch { /* not JSON */ }
          reject(new ApiError(request.status, body));
        }
      };
      request.onerror = () => reject(new ApiError(0, { title: 'The connection was lost' }));
      request.send(file.slice(offset, Math.min(file.size, offset + chunkSize)));
    });
  }

  progress(job, sent) {
    this.totals.sent += sent - job.sent;
    job.sent = sent;
    job.row.bar.value = sent;
    this.updateOverall();
  }

  updateOverall() {
    this.overall.max = Math.max(1, this.totals.bytes);
    this.overall.value = this.totals.sent;
    this.overallText.textContent = `${formatBytes(this.totals.sent)} of ${formatBytes(this.totals.bytes)}`;
  }
}

/** Files from a drop, folders walked. */
export async function droppedFiles(dataTransfer) {
  const entries = [...dataTransfer.items].map((item) => item.webkitGetAsEntry?.()).filter(Boolean);
  if (!entries.length) return [...dataTransfer.files];
  const files = [];
  const walk = async (entry) => {
    if (entry.isFile) {
      files.push(await new Promise((resolve, reject) => entry.file(resolve, reject)));
    } else if (entry.isDirectory) {
      const reader = entry.createReader();
      for (;;) {
        const batch = await new Promise((resolve, reject) => reader.readEntries(resolve, reject));
        if (!batch.length) break;
        for (const child of batch) if (!child.name.startsWith('.')) await walk(child);
      }
    }
  };
  for (const entry of entries) await walk(entry);
  return files;
}

function storageKey(file) {
  return `upload:${file.name}:${file.size}:${file.lastModified}`;
}

async function problem(response) {
  let body = {};
  try { body = await response.json(); } catch { /* not JSON */ }
  return new ApiError(response.status, body);
}

function formatBytes(bytes) {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes, unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value.toFixed(unit ? 1 : 0)} ${units[unit]}`;
}

function fail(row, error) {
  row.item.classList.add('failed');
  row.status.textContent = error instanceof ApiError ? error.detail || error.title : String(error.message || error);
}

const photoExtensions = ['heic', 'heif', 'jpg', 'jpeg', 'png', 'dng'];
const videoExtensions = ['mov', 'mp4', 'm4v'];

/** Marks the photo and video of one name among `jobs` as a pair, to be added in one block. */
function pairLivePhotos(jobs) {
  const byName = new Map();
  for (const job of jobs) {
    const dot = job.file.name.lastIndexOf('.');
    if (dot <= 0) continue;
    const stem = job.file.name.slice(0, dot).toLowerCase();
    if (!byName.has(stem)) byName.set(stem, []);
    byName.get(stem).push(job);
  }
  const extension = (job) => job.file.name.slice(job.file.name.lastIndexOf('.') + 1).toLowerCase();
  for (const group of byName.values()) {
    if (group.length !== 2) continue;
    const photo = group.find((job) => photoExtensions.includes(extension(job)));
    const video = group.find((job) => videoExtensions.includes(extension(job)));
    if (!photo || !video) continue;
    const pair = { photo, video, ended: new Map() };
    photo.pair = pair;
    video.pair = pair;
  }
}
