// Every request the page makes, and the one event stream. No DOM here.
// Routes and shapes follow docs/web-api.md.

/** A failed request: `message` is the server's one-line `error` text (or ours when it can't be reached). */
export class ApiError extends Error {
  constructor(message, status = 0) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
  }

  /** True when trying again may help (the server could not be reached or failed itself). */
  get transient() {
    return this.status === 0 || this.status >= 500 || this.status === 408 || this.status === 429;
  }
}

const UNREACHABLE = 'Can’t reach the VoiceNotes server. Is it still running?';

function parseJSON(text) {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function errorFrom(status, statusText, data) {
  const message = data && typeof data.error === 'string' && data.error.trim()
    ? data.error.trim()
    : `The server answered ${status}${statusText ? ` ${statusText}` : ''}.`;
  return new ApiError(message, status);
}

async function request(method, path, { json, body, contentType, signal } = {}) {
  const headers = { Accept: 'application/json' };
  if (json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(json);
  } else if (contentType) {
    headers['Content-Type'] = contentType;
  }
  let response;
  try {
    response = await fetch(path, { method, headers, body, signal, credentials: 'same-origin', cache: 'no-store' });
  } catch (error) {
    if (error && error.name === 'AbortError') throw error;
    throw new ApiError(UNREACHABLE, 0);
  }
  const data = parseJSON(await response.text());
  if (!response.ok) throw errorFrom(response.status, response.statusText, data);
  return data;
}

const id = (value) => encodeURIComponent(value);

function query(params) {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

// Library and notes

export const getStatus = () => request('GET', '/api/status');

export const listNotes = ({ limit = 50, before } = {}) =>
  request('GET', `/api/notes${query({ limit, before })}`);

export const getNote = (noteID) => request('GET', `/api/notes/${id(noteID)}`);

export const renameNote = (noteID, title) =>
  request('PATCH', `/api/notes/${id(noteID)}`, { json: { title } });

export const deleteNote = (noteID) => request('DELETE', `/api/notes/${id(noteID)}`);

export const retryNote = (noteID) => request('POST', `/api/notes/${id(noteID)}/retry`);

export const exportURL = (noteID, format) => `/api/notes/${id(noteID)}/export${query({ format })}`;

export const restoreSamples = () => request('POST', '/api/samples/restore');

// Speakers

/** Names speaker `number` (from 1) of a note; a null name unnames it. Returns the note. */
export const nameSpeaker = (noteID, number, name) =>
  request('PUT', `/api/notes/${id(noteID)}/speakers/${id(String(number))}`, { json: { name } });

export const listSpeakers = () => request('GET', '/api/speakers');

export const renameSpeaker = (voiceID, name) => request('PATCH', `/api/speakers/${id(voiceID)}`, { json: { name } });

export const mergeSpeaker = (voiceID, into) => request('POST', `/api/speakers/${id(voiceID)}/merge`, { json: { into } });

export const forgetSpeaker = (voiceID) => request('DELETE', `/api/speakers/${id(voiceID)}`);

// Search and action items

/** `mode` is hybrid, keyword or semantic (omitted: the server's default). The answer says which was used. */
export const search = (q, scope = 'all', { signal, limit = 20, mode } = {}) =>
  request('GET', `/api/search${query({ q, scope, limit, mode })}`, { signal });

/** The notes closest in meaning to one note: `{results, mode}` (empty without a semantic index). */
export const relatedNotes = (noteID, { signal } = {}) =>
  request('GET', `/api/notes/${id(noteID)}/related`, { signal });

export const listTasks = ({ completed = false, person } = {}) =>
  request('GET', `/api/tasks${query({ completed: completed ? 'true' : 'false', person })}`);

export const setTaskDone = (itemID, done) =>
  request('PATCH', `/api/tasks/${id(itemID)}`, { json: { done } });

// Asking

/**
 * Asks a question of the notes (POST /api/ask), reading the server-sent events of its answer.
 * `on.conversation({id})`, `on.text({text})` for each piece as it is written, then `on.answer(answer)`
 * or `on.error({error})`. Resolves when the stream ends; rejects with an ApiError when the server
 * refuses the question before answering (its one-line message) or the connection is lost.
 */
export async function ask(question, { conversation, signal, on = {} } = {}) {
  const json = { question };
  if (conversation) json.conversation = conversation;
  let response;
  try {
    response = await fetch('/api/ask', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
      body: JSON.stringify(json),
      signal,
      credentials: 'same-origin',
      cache: 'no-store',
    });
  } catch (error) {
    if (error && error.name === 'AbortError') throw error;
    throw new ApiError(UNREACHABLE, 0);
  }
  if (!response.ok) throw errorFrom(response.status, response.statusText, parseJSON(await response.text()));
  if (!response.body) throw new ApiError('This browser can’t read a streamed answer.', 0);

  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let event = 'message';
  let data = [];
  let finished = false;

  const dispatch = () => {
    if (data.length === 0) {
      event = 'message';
      return;
    }
    const payload = parseJSON(data.join('\n'));
    const name = event;
    event = 'message';
    data = [];
    if (payload === null) return;
    if (name === 'answer' || name === 'error') finished = true;
    const handler = on[name];
    if (handler) handler(payload);
  };

  const line = (text) => {
    if (text === '') {
      dispatch();
      return;
    }
    if (text.startsWith(':')) return; // a comment (keep-alive)
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value || 'message';
    else if (field === 'data') data.push(value);
  };

  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let end;
      while ((end = buffer.search(/\r\n|\r|\n/)) !== -1) {
        const text = buffer.slice(0, end);
        buffer = buffer.slice(end + (buffer.startsWith('\r\n', end) ? 2 : 1));
        line(text);
      }
    }
  } catch (error) {
    if (error && error.name === 'AbortError') throw error;
    throw new ApiError('The connection was lost while the answer was being written.', 0);
  }
  buffer += decoder.decode();
  if (buffer) line(buffer);
  dispatch();
  if (!finished) throw new ApiError('The answer stopped before it was finished.', 0);
}

// Models

export const listModels = () => request('GET', '/api/models');

export const installModel = (name) => request('POST', `/api/models/${id(name)}/install`);

// Recording

export const startRecording = () => request('POST', '/api/recordings');

export const appendRecording = (recordingID, bytes) =>
  request('POST', `/api/recordings/${id(recordingID)}/audio`, { body: bytes, contentType: 'application/octet-stream' });

export const stopRecording = (recordingID) => request('POST', `/api/recordings/${id(recordingID)}/stop`);

// Import

/** The Content-Type an import is sent with: the file's own type, or octet-stream when the browser has none. */
export function importContentType(file) {
  return file.type || 'application/octet-stream';
}

/**
 * Uploads one file to POST /api/imports with XMLHttpRequest (fetch has no upload progress).
 * `onProgress(fraction)` is called as bytes go out. Returns `{promise, abort}`; the promise
 * resolves to the new Note or rejects with an ApiError carrying the server's message.
 */
export function importFile(file, onProgress = () => {}) {
  const xhr = new XMLHttpRequest();
  const promise = new Promise((resolve, reject) => {
    xhr.open('POST', `/api/imports${query({ name: file.name })}`);
    xhr.setRequestHeader('Content-Type', importContentType(file));
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    });
    xhr.addEventListener('load', () => {
      const data = parseJSON(xhr.responseText);
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(1);
        resolve(data);
      } else {
        reject(errorFrom(xhr.status, xhr.statusText, data));
      }
    });
    xhr.addEventListener('error', () => reject(new ApiError(UNREACHABLE, 0)));
    xhr.addEventListener('abort', () => reject(new ApiError('The upload was cancelled.', 0)));
    xhr.send(file);
  });
  return { promise, abort: () => xhr.abort() };
}

// Events

const EVENT_NAMES = ['note', 'deleted', 'library', 'live', 'model'];

/**
 * The one EventSource on /api/events. `on(name, handler)` returns the remover.
 * Besides the server's events it emits `connection` ({state: 'open' | 'reconnecting'})
 * and `resync` (after a lost connection came back: events may have been missed).
 */
export function createEventStream(url = '/api/events') {
  const listeners = new Map();
  let source = null;
  let lost = false;
  let retryDelay = 1000;
  let retryTimer = null;

  function emit(name, data) {
    for (const handler of listeners.get(name) || []) {
      try {
        handler(data);
      } catch (error) {
        console.error(`voicenotes: a "${name}" handler failed`, error);
      }
    }
  }

  function connect() {
    retryTimer = null;
    source = new EventSource(url);
    source.addEventListener('open', () => {
      retryDelay = 1000;
      emit('connection', { state: 'open' });
      if (lost) emit('resync', {});
      lost = false;
    });
    source.addEventListener('error', () => {
      lost = true;
      emit('connection', { state: 'reconnecting' });
      // The browser retries by itself unless the stream was refused; then we start again.
      if (source.readyState === EventSource.CLOSED) {
        source = null;
        clearTimeout(retryTimer);
        retryTimer = setTimeout(connect, retryDelay);
        retryDelay = Math.min(retryDelay * 2, 15000);
      }
    });
    for (const name of EVENT_NAMES) {
      source.addEventListener(name, (event) => {
        const data = parseJSON(event.data);
        if (data !== null) emit(name, data);
      });
    }
  }

  return {
    start() {
      if (!source && !retryTimer) connect();
    },
    on(name, handler) {
      if (!listeners.has(name)) listeners.set(name, new Set());
      listeners.get(name).add(handler);
      return () => listeners.get(name).delete(handler);
    },
    close() {
      clearTimeout(retryTimer);
      retryTimer = null;
      if (source) source.close();
      source = null;
    },
  };
}
