/**
 * Cron schedules as the CronJob controller reads them (robfig/cron's standard
 * parser): five fields (minute hour day-of-month month day-of-week) with lists,
 * ranges, steps, names (jan…dec, sun…sat) and `?`, or a descriptor (@yearly,
 * @annually, @monthly, @weekly, @daily, @midnight, @hourly, @every <duration>).
 * Times are computed in UTC or in an IANA time zone (spec.timeZone).
 */

interface Field {
  bits: Set<number>;
  star: boolean;
}

export interface CronSchedule {
  minute: Field;
  hour: Field;
  dom: Field;
  month: Field;
  dow: Field;
  /** For `@every`: a fixed interval in milliseconds. */
  everyMs?: number;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

const DESCRIPTORS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

function parseDuration(text: string): number {
  const re = /(\d+(?:\.\d+)?)(ms|h|m|s)/g;
  let total = 0;
  let consumed = 0;
  for (const m of text.matchAll(re)) {
    total += Number(m[1]) * { h: 3_600_000, m: 60_000, s: 1000, ms: 1 }[m[2] as 'h' | 'm' | 's' | 'ms'];
    consumed += m[0].length;
  }
  if (!text || consumed !== text.length || total <= 0) throw new Error(`invalid duration "${text}"`);
  return total;
}

function parseValue(text: string, names: string[] | undefined, min: number): number {
  const lower = text.toLowerCase();
  if (names) {
    const i = names.indexOf(lower);
    if (i >= 0) return i + min;
  }
  if (!/^\d+$/.test(text)) throw new Error(`failed to parse int from ${text}`);
  return Number(text);
}

function parseField(text: string, min: number, max: number, names?: string[]): Field {
  const bits = new Set<number>();
  let star = false;
  for (const part of text.split(',')) {
    const [rangeText, stepText] = part.split('/');
    let lo: number;
    let hi: number;
    const step = stepText === undefined ? 1 : Number(stepText);
    if (!Number.isInteger(step) || step <= 0) throw new Error(`invalid step in "${part}"`);
    if (rangeText === '*' || rangeText === '?') {
      lo = min;
      hi = max;
      if (step === 1) star = true;
    } else {
      const [a, b] = rangeText.split('-');
      lo = parseValue(a, names, min);
      hi = b === undefined ? (stepText === undefined ? lo : max) : parseValue(b, names, min);
    }
    if (lo < min || hi > max || lo > hi) throw new Error(`value out of range in "${part}" (${min}-${max})`);
    for (let v = lo; v <= hi; v += step) bits.add(v);
  }
  return { bits, star };
}

export function parseCron(schedule: string): CronSchedule {
  let text = schedule.trim();
  if (/^(CRON_)?TZ=/.test(text)) text = text.slice(text.indexOf(' ') + 1).trim();
  if (text.startsWith('@every ')) {
    const everyMs = parseDuration(text.slice(7).trim());
    const all = (min: number, max: number) => parseField('*', min, max);
    return {
      minute: all(0, 59),
      hour: all(0, 23),
      dom: all(1, 31),
      month: all(1, 12),
      dow: all(0, 6),
      everyMs,
    };
  }
  if (text.startsWith('@')) {
    const expanded = DESCRIPTORS[text.toLowerCase()];
    if (!expanded) throw new Error(`unrecognized descriptor: ${text}`);
    text = expanded;
  }
  const fields = text.split(/\s+/);
  if (fields.length !== 5) throw new Error(`expected exactly 5 fields, found ${fields.length}: ${schedule}`);
  const dow = parseField(fields[4], 0, 7, [...DAYS]);
  if (dow.bits.has(7)) {
    dow.bits.delete(7);
    dow.bits.add(0);
  }
  return {
    minute: parseField(fields[0], 0, 59),
    hour: parseField(fields[1], 0, 23),
    dom: parseField(fields[2], 1, 31),
    month: parseField(fields[3], 1, 12, MONTHS),
    dow,
  };
}

interface Wall {
  year: number;
  month: number; // 1-12
  day: number;
  hour: number;
  minute: number;
  weekday: number; // 0 = Sunday
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock fields of an instant in a time zone (UTC when none). */
function wallOf(ms: number, tz?: string): Wall {
  if (!tz || tz === 'UTC' || tz === 'Etc/UTC') {
    const d = new Date(ms);
    return {
      year: d.getUTCFullYear(),
      month: d.getUTCMonth() + 1,
      day: d.getUTCDate(),
      hour: d.getUTCHours(),
      minute: d.getUTCMinutes(),
      weekday: d.getUTCDay(),
    };
  }
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      weekday: 'short',
    });
    formatters.set(tz, f);
  }
  const parts = Object.fromEntries(f.formatToParts(new Date(ms)).map((p) => [p.type, p.value]));
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    weekday: DAYS.indexOf(String(parts.weekday).toLowerCase().slice(0, 3)),
  };
}

/** The UTC offset (ms) of a time zone at an instant. */
function offsetAt(ms: number, tz?: string): number {
  if (!tz || tz === 'UTC' || tz === 'Etc/UTC') return 0;
  const w = wallOf(ms, tz);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute);
  return asUtc - Math.floor(ms / 60_000) * 60_000;
}

/** Instant of a wall-clock time in a zone (a time in a DST gap moves forward). */
function instantOf(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  tz?: string,
): number {
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  const guess = wall - offsetAt(wall, tz);
  return wall - offsetAt(guess, tz);
}

function dayMatches(s: CronSchedule, w: Wall): boolean {
  const dom = s.dom.bits.has(w.day);
  const dow = s.dow.bits.has(w.weekday);
  return s.dom.star || s.dow.star ? dom && dow : dom || dow;
}

/** The first scheduled time strictly after `afterMs` (undefined if none within five years). */
export function nextAfter(s: CronSchedule, afterMs: number, tz?: string): number | undefined {
  if (s.everyMs) return afterMs - (afterMs % 1000) + s.everyMs;
  let t = Math.floor(afterMs / 60_000) * 60_000 + 60_000;
  const limit = afterMs + 5 * 366 * 86_400_000;
  while (t <= limit) {
    const w = wallOf(t, tz);
    if (!s.month.bits.has(w.month)) {
      const y = w.month === 12 ? w.year + 1 : w.year;
      const m = w.month === 12 ? 1 : w.month + 1;
      t = Math.max(t + 60_000, instantOf(y, m, 1, 0, 0, tz));
      continue;
    }
    if (!dayMatches(s, w)) {
      t = Math.max(t + 60_000, instantOf(w.year, w.month, w.day + 1, 0, 0, tz));
      continue;
    }
    if (!s.hour.bits.has(w.hour)) {
      t = Math.max(t + 60_000, instantOf(w.year, w.month, w.day, w.hour + 1, 0, tz));
      continue;
    }
    if (!s.minute.bits.has(w.minute)) {
      t += 60_000;
      continue;
    }
    return t;
  }
  return undefined;
}

/**
 * mostRecentScheduleTime: the latest scheduled time in (since, now], and how
 * many were missed; undefined when none is due.
 */
export function mostRecent(
  s: CronSchedule,
  sinceMs: number,
  nowMs: number,
  tz?: string,
): { time: number; missed: number } | undefined {
  let t = nextAfter(s, sinceMs, tz);
  if (t === undefined || t > nowMs) return undefined;
  let missed = 0;
  for (;;) {
    const n = nextAfter(s, t, tz);
    if (n === undefined || n > nowMs) return { time: t, missed };
    t = n;
    missed++;
    if (missed > 100_000) return { time: t, missed };
  }
}
