// The exact text of one member of a JSON object, found by walking the answer's text. The API splices an
// event's stored payload into its answer byte for byte; this gets those bytes back for display.

const WS = new Set([' ', '\t', '\n', '\r']);

function skipWs(s: string, i: number): number {
  while (i < s.length && WS.has(s[i] as string)) i++;
  return i;
}

/** Index just past the string starting at `i` (which is a quote). */
function skipString(s: string, i: number): number {
  for (let j = i + 1; j < s.length; j++) {
    if (s[j] === '\\') j++;
    else if (s[j] === '"') return j + 1;
  }
  throw new Error('unterminated string');
}

/** Index just past the JSON value starting at `i`. */
function skipValue(s: string, i: number): number {
  const c = s[i];
  if (c === '"') return skipString(s, i);
  if (c !== '{' && c !== '[') {
    let j = i;
    while (j < s.length && !WS.has(s[j] as string) && s[j] !== ',' && s[j] !== '}' && s[j] !== ']') j++;
    return j;
  }
  let depth = 0;
  for (let j = i; j < s.length; j++) {
    const ch = s[j];
    if (ch === '"') j = skipString(s, j) - 1;
    else if (ch === '{' || ch === '[') depth++;
    else if (ch === '}' || ch === ']') {
      depth--;
      if (depth === 0) return j + 1;
    }
  }
  throw new Error('unterminated value');
}

/** The raw text of top-level member `key` of the JSON object in `text`, or null when absent or malformed. */
export function rawMember(text: string, key: string): string | null {
  try {
    let i = skipWs(text, 0);
    if (text[i] !== '{') return null;
    i = skipWs(text, i + 1);
    while (i < text.length && text[i] !== '}') {
      const keyEnd = skipString(text, i);
      const name = JSON.parse(text.slice(i, keyEnd)) as string;
      i = skipWs(text, keyEnd);
      if (text[i] !== ':') return null;
      const start = skipWs(text, i + 1);
      const end = skipValue(text, start);
      if (name === key) return text.slice(start, end);
      i = skipWs(text, end);
      if (text[i] === ',') i = skipWs(text, i + 1);
    }
    return null;
  } catch {
    return null;
  }
}
