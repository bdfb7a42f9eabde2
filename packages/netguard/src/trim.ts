// Trimming without a regular expression: /x+$/ is tried at every position of a long run of x that is
// not at the end, and each try walks the rest of the run (quadratic: 80,000 slashes take seconds).
// Host names and URLs reach these from Agent Cards and stored targets, so the loop is the only form.

/** `text` without the run of `char` (one UTF-16 unit) at its end. */
export function trimTrailing(text: string, char: string): string {
  const code = char.charCodeAt(0);
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === code) end--;
  return end === text.length ? text : text.slice(0, end);
}

/** The form host tables and DNS are keyed by: lower case, without the dots of a fully qualified name. */
export const normalizeHostName = (host: string): string => trimTrailing(host.toLowerCase(), '.');
