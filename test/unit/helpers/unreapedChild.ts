// A child whose parent never reaps it: once killed it stays a zombie (state Z in /proc/PID/stat), as a process does in
// a container whose PID 1 does not reap. The parent is a shell that starts the command in the background, then
// replaces itself with `sleep`, which never waits for anything. Linux only.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { stateFromStat } from '../../../src/core/webhooks/historyLock';

export interface UnreapedChild {
  /** The command's pid (the shell's `$!`). */
  pid: number;
  /** The parent, which never reaps it: `sleep` once the shell has replaced itself. */
  parent: ChildProcess;
  /** The command's standard output, its own pipe: it ends when the command has exited. */
  output: NodeJS.ReadableStream;
  /** Kills the command with SIGKILL and resolves once it is a zombie; rejects if it is not (reaped, or still alive). */
  killToZombie(): Promise<void>;
  /** Stops the parent, so the zombie is handed to init and reaped. */
  stop(): void;
}

/** The state letter of /proc/PID/stat, or undefined when there is no such process. */
export function procState(pid: number): string | undefined {
  try {
    return stateFromStat(readFileSync(`/proc/${pid}/stat`, 'latin1'));
  } catch {
    return undefined;
  }
}

export async function spawnUnreaped(command: string[], env: NodeJS.ProcessEnv = process.env): Promise<UnreapedChild> {
  // fd 3 carries `$!` and closes as the shell becomes `sleep`: its end says the parent no longer reaps.
  const script = '"$@" 3>&- & echo $! >&3; exec 1>&- 3>&- sleep 600';
  const parent = spawn('sh', ['-c', script, 'sh', ...command], { env, stdio: ['ignore', 'pipe', 'inherit', 'pipe'] });
  const pidPipe = parent.stdio[3] as NodeJS.ReadableStream;
  let text = '';
  pidPipe.on('data', (d: Buffer) => (text += d.toString()));
  await new Promise<void>((resolve, reject) => {
    pidPipe.once('end', resolve);
    parent.once('error', reject);
  });
  const pid = Number(text.trim());
  if (!Number.isInteger(pid) || pid <= 0) throw new Error(`no pid from the shell: ${JSON.stringify(text)}`);
  const output = parent.stdout!;
  const ended = new Promise<void>((resolve) => output.once('end', resolve));
  return {
    pid,
    parent,
    output,
    async killToZombie() {
      process.kill(pid, 'SIGKILL');
      output.resume();
      // Its pipe ends as the kernel closes its files, a moment before it is marked a zombie.
      await ended;
      for (let i = 0; i < 1000 && procState(pid) !== 'Z'; i++) await new Promise((r) => setTimeout(r, 2));
      const state = procState(pid);
      if (state !== 'Z')
        throw new Error(`pid ${pid} is not a zombie: /proc/${pid}/stat says ${state ?? 'no such process'}`);
    },
    stop() {
      parent.kill('SIGKILL');
    },
  };
}
