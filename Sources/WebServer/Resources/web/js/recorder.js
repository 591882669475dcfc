// Microphone capture and chunk upload. No DOM here.
//
// getUserMedia → AudioContext (16 kHz) → AudioWorklet (pcm-worklet.js) → Float32 blocks here →
// every ~250 ms one 16-bit little-endian mono chunk in a queue → POST /api/recordings/ID/audio,
// strictly one request at a time and in order. A failed chunk is retried; audio is never dropped
// while the recording runs. Stop flushes the queue, then POSTs /stop.

import { ApiError } from './api.js';

export const SAMPLE_RATE = 16000;
const TICK_MS = 250;
const RETRY_DELAYS = [300, 700, 1500, 3000]; // then every 3 s while recording
const MAX_CHUNKS_PER_REQUEST = 40; // catching up after a slow spell: ~10 s per request

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Float32 samples (−1…1) → 16-bit little-endian PCM bytes. */
export function floatToPCM16(samples) {
  const buffer = new ArrayBuffer(samples.length * 2);
  const view = new DataView(buffer);
  for (let i = 0; i < samples.length; i += 1) {
    const s = Math.max(-1, Math.min(1, samples[i]));
    view.setInt16(i * 2, s < 0 ? s * 0x8000 : s * 0x7fff, true);
  }
  return buffer;
}

/** A streaming averaging resampler, for browsers that won't run the context at 16 kHz. */
export function createResampler(inputRate, outputRate = SAMPLE_RATE) {
  if (inputRate === outputRate) return (samples) => samples;
  const step = inputRate / outputRate;
  let sum = 0;
  let count = 0;
  let position = 0;
  let next = step;
  return (samples) => {
    const out = new Float32Array(Math.ceil(samples.length / step) + 1);
    let k = 0;
    for (let i = 0; i < samples.length; i += 1) {
      sum += samples[i];
      count += 1;
      position += 1;
      if (position >= next) {
        out[k] = sum / count;
        k += 1;
        sum = 0;
        count = 0;
        next += step;
      }
    }
    next -= position;
    position = 0;
    return out.subarray(0, k);
  };
}

function concat(buffers) {
  const total = buffers.reduce((n, b) => n + b.byteLength, 0);
  const out = new Uint8Array(total);
  let offset = 0;
  for (const b of buffers) {
    out.set(new Uint8Array(b), offset);
    offset += b.byteLength;
  }
  return out.buffer;
}

function microphoneMessage(error) {
  switch (error && error.name) {
    case 'NotAllowedError':
    case 'SecurityError':
      return 'Microphone access was denied. Allow the microphone for this page in the browser’s site settings, then press Record again.';
    case 'NotFoundError':
    case 'OverconstrainedError':
      return 'No microphone was found. Connect one and press Record again.';
    case 'NotReadableError':
    case 'AbortError':
      return 'The microphone is busy or unavailable (another app may be using it).';
    default:
      return `The microphone could not be started: ${(error && error.message) || error}`;
  }
}

/**
 * createRecorder({api}) → {start, stop, get, subscribe}.
 * `get()` is {phase: 'idle' | 'starting' | 'recording' | 'stopping', recordingID, seconds,
 * pendingSeconds, error, warning}. Subscribers get (state, happening) where happening is
 * undefined or {type: 'started' | 'stopped', note}.
 */
export function createRecorder({ api, workletURL = '/app/js/pcm-worklet.js' }) {
  const subscribers = new Set();
  let state = { phase: 'idle', recordingID: null, seconds: 0, pendingSeconds: 0, error: null, warning: null };
  let session = null;

  function set(patch, happening) {
    state = { ...state, ...patch };
    for (const fn of [...subscribers]) fn(state, happening);
  }

  function pendingSeconds(s) {
    const queued = s.queue.reduce((n, b) => n + b.byteLength, 0) / 2;
    return (queued + s.pendingLength) / SAMPLE_RATE;
  }

  // Audio graph

  async function openGraph(s) {
    let context = new AudioContext({ sampleRate: SAMPLE_RATE });
    let source;
    try {
      source = context.createMediaStreamSource(s.stream);
    } catch {
      // Some browsers can't connect a microphone to a context at another rate: resample here.
      await context.close();
      context = new AudioContext();
      source = context.createMediaStreamSource(s.stream);
    }
    s.context = context;
    if (context.state === 'suspended') await context.resume();
    await context.audioWorklet.addModule(workletURL);
    const node = new AudioWorkletNode(context, 'pcm-capture', {
      numberOfInputs: 1,
      numberOfOutputs: 1,
      channelCount: 1,
      channelCountMode: 'explicit',
      channelInterpretation: 'speakers',
    });
    const silence = context.createGain();
    silence.gain.value = 0; // keeps the node pulled without playing the microphone back
    const resample = createResampler(context.sampleRate, SAMPLE_RATE);
    node.port.onmessage = (event) => {
      const message = event.data;
      if (message && message.type === 'pcm') {
        const samples = resample(message.samples);
        if (samples.length) {
          s.pending.push(samples);
          s.pendingLength += samples.length;
          s.capturedSamples += samples.length;
        }
      } else if (message && message.type === 'flushed' && s.onFlushed) {
        s.onFlushed();
      }
    };
    source.connect(node);
    node.connect(silence);
    silence.connect(context.destination);
    s.source = source;
    s.node = node;
    s.silence = silence;
  }

  async function flushGraph(s) {
    if (!s.node) return;
    await Promise.race([
      new Promise((resolve) => {
        s.onFlushed = resolve;
        s.node.port.postMessage({ type: 'flush' });
      }),
      sleep(600),
    ]);
    s.onFlushed = null;
  }

  function closeGraph(s) {
    clearInterval(s.timer);
    s.timer = null;
    try {
      if (s.source) s.source.disconnect();
      if (s.node) {
        s.node.port.onmessage = null;
        s.node.disconnect();
      }
      if (s.silence) s.silence.disconnect();
    } catch {
      // already disconnected
    }
    if (s.stream) for (const track of s.stream.getTracks()) track.stop();
    if (s.context && s.context.state !== 'closed') s.context.close().catch(() => {});
    s.source = s.node = s.silence = null;
  }

  // Chunks

  function cutChunk(s) {
    if (s.pendingLength === 0) return;
    const samples = new Float32Array(s.pendingLength);
    let offset = 0;
    for (const block of s.pending) {
      samples.set(block, offset);
      offset += block.length;
    }
    s.pending = [];
    s.pendingLength = 0;
    s.queue.push(floatToPCM16(samples));
  }

  function tick(s) {
    cutChunk(s);
    pump(s);
    set({ seconds: s.capturedSamples / SAMPLE_RATE, pendingSeconds: pendingSeconds(s) });
  }

  /** Sends queued chunks one request at a time, in order. Resolves when the queue is empty or sending gave up. */
  function pump(s) {
    if (s.pumping) return s.pumping;
    if (!s.recordingID || s.queue.length === 0 || s.failed) return Promise.resolve();
    s.pumping = (async () => {
      try {
        while (s.queue.length && !s.failed) {
          const count = Math.min(s.queue.length, MAX_CHUNKS_PER_REQUEST);
          const body = count === 1 ? s.queue[0] : concat(s.queue.slice(0, count));
          let attempt = 0;
          for (;;) {
            try {
              await api.appendRecording(s.recordingID, body);
              s.queue.splice(0, count);
              if (state.warning && session === s) set({ warning: null });
              break;
            } catch (error) {
              const apiError = error instanceof ApiError ? error : new ApiError(String(error), 0);
              if (!apiError.transient) {
                s.failed = apiError;
                return;
              }
              attempt += 1;
              const giveUp = s.stopping && attempt > RETRY_DELAYS.length;
              if (giveUp) {
                s.failed = apiError;
                return;
              }
              if (attempt > 2 && session === s) {
                set({ warning: `${apiError.message} Keeping the audio and trying again…` });
              }
              await sleep(RETRY_DELAYS[Math.min(attempt - 1, RETRY_DELAYS.length - 1)]);
            }
          }
        }
      } finally {
        s.pumping = null;
      }
    })();
    return s.pumping;
  }

  async function drain(s) {
    while (s.recordingID && s.queue.length && !s.failed) await pump(s);
  }

  // Ending a session whose server side went away (404, 409 or similar)
  function abandon(s, message) {
    closeGraph(s);
    if (session === s) session = null;
    set({ phase: 'idle', recordingID: null, error: message, warning: null }, { type: 'stopped', note: null });
  }

  function watchFailure(s) {
    const check = setInterval(() => {
      if (session !== s) {
        clearInterval(check);
      } else if (s.failed && !s.stopping) {
        clearInterval(check);
        abandon(s, `The recording stopped: ${s.failed.message}`);
      }
    }, TICK_MS);
  }

  async function start() {
    if (state.phase !== 'idle') return;
    set({ phase: 'starting', error: null, warning: null, seconds: 0, pendingSeconds: 0, recordingID: null });
    if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia || !window.AudioWorkletNode) {
      set({
        phase: 'idle',
        error: 'This browser can’t record here. Open the page as http://localhost or over HTTPS in a current browser.',
      });
      return;
    }
    const s = {
      stream: null, context: null, source: null, node: null, silence: null, timer: null, onFlushed: null,
      pending: [], pendingLength: 0, capturedSamples: 0, queue: [], pumping: null,
      recordingID: null, failed: null, stopping: false,
    };
    try {
      s.stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch (error) {
      set({ phase: 'idle', error: microphoneMessage(error) });
      return;
    }
    try {
      await openGraph(s);
    } catch (error) {
      closeGraph(s);
      set({ phase: 'idle', error: `Recording could not start in this browser: ${error.message || error}` });
      return;
    }
    session = s;
    s.timer = setInterval(() => tick(s), TICK_MS);
    for (const track of s.stream.getAudioTracks()) {
      track.addEventListener('ended', () => {
        if (session === s && !s.stopping) stop('The microphone was disconnected; the recording was saved.');
      });
    }
    let started;
    try {
      started = await api.startRecording();
    } catch (error) {
      closeGraph(s);
      session = null;
      set({ phase: 'idle', error: `The recording could not start: ${error.message}` });
      return;
    }
    s.recordingID = started.recordingID;
    watchFailure(s);
    set({ phase: 'recording', recordingID: started.recordingID }, { type: 'started', note: started.note || null });
    pump(s);
    // Stop pressed while the server was still answering.
    if (s.stopRequested) stop();
  }

  async function stop(notice) {
    const s = session;
    if (!s) return;
    if (state.phase === 'starting') {
      s.stopRequested = true;
      return;
    }
    if (s.stopping) return;
    s.stopping = true;
    set({ phase: 'stopping' });
    await flushGraph(s);
    closeGraph(s);
    cutChunk(s);
    set({ seconds: s.capturedSamples / SAMPLE_RATE, pendingSeconds: pendingSeconds(s) });
    await drain(s);
    const unsent = pendingSeconds(s);
    let note = null;
    let error = notice || null;
    try {
      note = await api.stopRecording(s.recordingID);
    } catch (stopError) {
      error = `The recording could not be finished: ${stopError.message}`;
    }
    if (s.failed && unsent > 0.05) {
      error = `${Math.round(unsent)} s of audio at the end could not be sent (${s.failed.message})`;
    }
    if (session === s) session = null;
    set({ phase: 'idle', recordingID: null, pendingSeconds: 0, warning: null, error }, { type: 'stopped', note });
  }

  return {
    start,
    stop: () => stop(),
    get: () => state,
    subscribe(fn) {
      subscribers.add(fn);
      return () => subscribers.delete(fn);
    },
  };
}
