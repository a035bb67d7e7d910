// A system error code said in words, the code kept in brackets so it can still be searched for.
const WORDS: Record<string, (where: string) => string> = {
  ECONNREFUSED: (w) => `nothing is listening at ${w}`,
  ENOTFOUND: (w) => `no such host: ${w}`,
  EAI_AGAIN: (w) => `the name of ${w} could not be looked up (DNS did not answer)`,
  ECONNRESET: (w) => `the connection to ${w} was cut`,
  ETIMEDOUT: (w) => `${w} did not answer in time`,
  EHOSTUNREACH: (w) => `no route to ${w}`,
  ENETUNREACH: (w) => `the network of ${w} cannot be reached`,
  EISDIR: (w) => `${w} is a directory, not a file`,
  ENOENT: (w) => `${w} does not exist`,
  EACCES: (w) => `no permission to use ${w}`,
};

/** "nothing is listening at http://127.0.0.1:9 (ECONNREFUSED)", or undefined for a code without words. */
export function errnoInWords(code: string | undefined, where: string): string | undefined {
  const words = code ? WORDS[code] : undefined;
  return words ? `${words(where)} (${code})` : undefined;
}

/** What to do next after a service could not be reached. */
export const UNREACHABLE_NEXT = 'check that the service is running and that WFS_BASE_URL (or a proxy) is right';
