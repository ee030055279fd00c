/**
 * A frame of a V8 stack trace, `at fn (file:line:column)` on a line of its own after some
 * indentation, printed as is or inside a JSON string (a pino record's `err.stack`: `\n    at …`).
 */
const FRAME = /(?:^|\\n)[ \t]+at [^\n]*?:\d+:\d+\)?/m;

/** The lines of `text` that hold a stack trace's frame ({@link FRAME}), for the quiet-run check. */
export function stackTraceLines(text: string): string[] {
  return text.split('\n').filter((line) => FRAME.test(line));
}

/**
 * Reads what is written to a stream in chunks, line by line: `write` takes each chunk and calls
 * `onLine` with every line it completes; `end` flushes the line still open.
 */
export function lineSplitter(onLine: (line: string) => void): { write(chunk: string): void; end(): void } {
  let open = '';
  return {
    write(chunk) {
      const lines = (open + chunk).split('\n');
      open = lines.pop() ?? '';
      for (const line of lines) onLine(line);
    },
    end() {
      if (open) onLine(open);
      open = '';
    },
  };
}
