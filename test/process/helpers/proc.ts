// What a process holds and has done, read from Linux's /proc: the kernel's own counts, so the tests wait on them
// rather than on a clock. Linux only (callers skip elsewhere).
import { readdirSync, readFileSync } from 'node:fs';

function field(pid: number, file: 'status' | 'io', key: string): number {
  return Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(readFileSync(`/proc/${pid}/${file}`, 'utf8'))![1]);
}

/** Resident memory of a process, in bytes: now and its peak. */
export function memoryOf(pid: number): { rss: number; peak: number } {
  return { rss: field(pid, 'status', 'VmRSS') * 1024, peak: field(pid, 'status', 'VmHWM') * 1024 };
}

/** Open file descriptors of a process (its sockets included). */
export const openFiles = (pid: number): number => readdirSync(`/proc/${pid}/fd`).length;

/** Bytes the process has read through read(2) and its kin, sockets included. */
export const bytesReadBy = (pid: number): number => field(pid, 'io', 'rchar');
