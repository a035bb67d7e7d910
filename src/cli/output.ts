// The CLI speaks JSON lines on stdout (DESIGN.md §5).

export type Emit = (line: Record<string, unknown>) => void;

export const emitToStdout: Emit = (line) => {
  process.stdout.write(JSON.stringify(line) + '\n');
};
