/**
 * The small logging surface every runtime part takes by injection. Fields are
 * structured (never interpolated into the message) so logs stay greppable.
 */
export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  /** A logger that adds `fields` to every line it writes. */
  child(fields: LogFields): Logger;
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const rank: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface JsonLoggerOptions {
  level?: LogLevel;
  /** Where lines go; defaults to process.stderr so stdout stays free for program output. */
  write?: (line: string) => void;
  fields?: LogFields;
}

/** JSON lines: `{"ts":..., "level":..., "msg":..., ...fields}`. Errors are flattened to message + stack. */
export function jsonLogger(options: JsonLoggerOptions = {}): Logger {
  const min = rank[options.level ?? 'info'];
  const write = options.write ?? ((line: string) => process.stderr.write(line));
  const base = options.fields ?? {};
  const emit = (level: LogLevel, msg: string, fields?: LogFields): void => {
    if (rank[level] < min) return;
    const record: LogFields = { ts: new Date().toISOString(), level, msg, ...base };
    for (const [k, v] of Object.entries(fields ?? {})) record[k] = serializable(v);
    write(`${JSON.stringify(record)}\n`);
  };
  return {
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
    child: (fields) => jsonLogger({ ...options, fields: { ...base, ...fields } }),
  };
}

/** Discards everything: for benchmarks and tests that assert on behaviour, not on logs. */
export const silentLogger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  child: () => silentLogger,
};

/** Keeps every line in memory, so tests can assert what was logged. */
export interface RecordedLine {
  level: LogLevel;
  msg: string;
  fields: LogFields;
}
export function memoryLogger(
  lines: RecordedLine[] = [],
  base: LogFields = {},
): Logger & { lines: RecordedLine[] } {
  const emit = (level: LogLevel) => (msg: string, fields?: LogFields) =>
    void lines.push({ level, msg, fields: { ...base, ...fields } });
  return {
    lines,
    debug: emit('debug'),
    info: emit('info'),
    warn: emit('warn'),
    error: emit('error'),
    child: (fields) => memoryLogger(lines, { ...base, ...fields }),
  };
}

function serializable(v: unknown): unknown {
  if (v instanceof Error) return { message: v.message, name: v.name, stack: v.stack };
  return v;
}
