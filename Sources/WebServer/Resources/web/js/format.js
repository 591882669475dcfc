// Pure formatting helpers: numbers and dates into the words shown on screen.

/** 42.5 → "0:42", 3725 → "1:02:05". */
export function formatDuration(seconds) {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0) return '0:00';
  const total = Math.floor(seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' });
const dayFormat = new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric', month: 'short' });
const yearFormat = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', year: 'numeric' });
const fullFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'full', timeStyle: 'short' });

function startOfDay(date) {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();
}

/** A short date for lists: "Today, 09:30", "Yesterday, 18:02", "Mon 1 Dec, 09:30", "1 Dec 2025". */
export function formatDate(iso, now = new Date()) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const days = Math.round((startOfDay(now) - startOfDay(date)) / 86400000);
  if (days === 0) return `Today, ${timeFormat.format(date)}`;
  if (days === 1) return `Yesterday, ${timeFormat.format(date)}`;
  if (date.getFullYear() === now.getFullYear()) return `${dayFormat.format(date)}, ${timeFormat.format(date)}`;
  return yearFormat.format(date);
}

/** The long form, for a tooltip. */
export function formatFullDate(iso) {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : fullFormat.format(date);
}

/** 0.423 → "42%". */
export function formatPercent(fraction) {
  if (typeof fraction !== 'number' || !Number.isFinite(fraction)) return '';
  return `${Math.round(Math.min(1, Math.max(0, fraction)) * 100)}%`;
}

/** Bytes as "1.5 GB"; a string (the server's own wording) is kept as it is. */
export function formatSize(size) {
  if (typeof size === 'string') return size;
  if (typeof size !== 'number' || !Number.isFinite(size) || size <= 0) return '';
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = size;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value >= 10 || unit === 0 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}

/** Where each note's transcription stood when this page first saw it under way: note id →
 * {time, fraction}, for the estimate of the time left. */
const transcriptionStarts = new Map();

/**
 * "about 2 min 10 s left" for a note being transcribed, from how fast its progress has moved
 * since this page first saw it; '' until a twentieth of the work or five seconds have passed.
 */
export function timeLeft(summary, now = Date.now()) {
  const fraction = summary.progress;
  if (summary.state !== 'transcribing' || typeof fraction !== 'number' || !Number.isFinite(fraction)) {
    transcriptionStarts.delete(summary.id);
    return '';
  }
  let start = transcriptionStarts.get(summary.id);
  if (!start || fraction < start.fraction) {
    start = { time: now, fraction };
    transcriptionStarts.set(summary.id, start);
  }
  const done = fraction - start.fraction;
  const elapsed = (now - start.time) / 1000;
  if (done < 0.05 || elapsed < 5 || fraction >= 1) return '';
  const left = Math.round((elapsed * (1 - fraction)) / done);
  return left >= 60 ? `about ${Math.floor(left / 60)} min ${left % 60} s left` : `about ${Math.max(left, 1)} s left`;
}

/** What a person sees for a note's `state` (and its progress, with the time left while it is
 * transcribed). */
export function describeState(summary) {
  const percent = summary.progress === null || summary.progress === undefined ? '' : ` ${formatPercent(summary.progress)}`;
  switch (summary.state) {
    case 'recording': return 'Recording';
    case 'saved': return 'Saved';
    case 'transcribing': {
      const left = timeLeft(summary);
      return `Transcribing${percent || '…'}${left ? `, ${left}` : ''}`;
    }
    case 'speakers': return `Finding speakers${percent || '…'}`;
    case 'analysing': return 'Analysing…';
    case 'indexing': return 'Indexing…';
    case 'done': return 'Done';
    case 'failed': return 'Failed';
    default: return summary.state ? String(summary.state) : 'Unknown';
  }
}

/** The title to show, with a fallback for a note that has none yet. */
export function displayTitle(summary) {
  const title = (summary.title || '').trim();
  return title || (summary.originalFileName || '').trim() || 'Untitled note';
}
