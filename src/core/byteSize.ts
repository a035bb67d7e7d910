// Sizes as people read them, for every layer that shows one (the panel, the receiver's notices, bounded files).

/** 1536 → "1.5 KiB"; binary units, one decimal under 10. */
export function byteSize(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB'];
  let n = bytes;
  let u = 0;
  while (n >= 1024 && u < units.length - 1) {
    n /= 1024;
    u++;
  }
  return u === 0 ? `${n} bytes` : `${n < 10 ? n.toFixed(1) : Math.round(n)} ${units[u]}`;
}
