// Just enough of the Compose, Dockerfile and nginx syntaxes to check the container files without a
// container engine. Each parser covers the forms the repository's files use and fails loudly on others.

/** Compose's variable substitution: $$, ${VAR}, ${VAR:-default}, ${VAR-default}, ${VAR:?error}, ${VAR?error}. */
export function interpolate<T>(value: T, env: Record<string, string | undefined>): T {
  if (typeof value === 'string') return substitute(value, env) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => interpolate(v, env)) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolate(v, env)])) as T;
  }
  return value;
}

const VARIABLE = /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-?])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g;

function substitute(text: string, env: Record<string, string | undefined>): string {
  return text.replace(
    VARIABLE,
    (whole, name?: string, colon?: string, op?: string, arg?: string, bare?: string) => {
      if (whole === '$$') return '$';
      const key = name ?? bare ?? '';
      const value = env[key];
      const missing = colon === ':' ? !value : value === undefined;
      if (op === '-') return missing ? (arg ?? '') : (value ?? '');
      if (op === '?' && missing) throw new Error(`required variable ${key} is missing: ${arg ?? ''}`);
      return value ?? '';
    },
  );
}

export interface Instruction {
  keyword: string;
  args: string;
}

export interface Stage {
  name: string;
  image: string;
  instructions: Instruction[];
}

export interface Dockerfile {
  /** ARGs declared before the first FROM, with their defaults: usable in FROM lines. */
  globalArgs: Record<string, string>;
  stages: Stage[];
}

/** Dockerfile instructions by stage, with line continuations joined and comments dropped. */
export function parseDockerfile(text: string): Dockerfile {
  const lines = text.split('\n').filter((l) => !/^\s*#/.test(l));
  const joined = lines.join('\n').replace(/\\\n/g, ' ');
  const stages: Stage[] = [];
  const globalArgs: Record<string, string> = {};
  for (const line of joined.split('\n')) {
    const m = /^\s*([A-Za-z]+)\s+(.*?)\s*$/.exec(line);
    if (!m) continue;
    const keyword = m[1]!.toUpperCase();
    const args = m[2]!.replace(/\s+/g, ' ');
    if (keyword === 'FROM') {
      const [from = '', as, name] = args.replace(/--\S+\s*/g, '').split(' ');
      const image = from.replace(/\$\{?(\w+)\}?/g, (_, arg: string) => globalArgs[arg] ?? '');
      const stageName = as?.toUpperCase() === 'AS' && name ? name : String(stages.length);
      stages.push({ image, name: stageName, instructions: [] });
      continue;
    }
    const stage = stages.at(-1);
    if (stage) {
      stage.instructions.push({ keyword, args });
    } else if (keyword === 'ARG') {
      const [arg = '', value = ''] = args.split('=', 2);
      globalArgs[arg] = value;
    } else {
      throw new Error(`Dockerfile: ${keyword} before the first FROM`);
    }
  }
  return { globalArgs, stages };
}

/** The sources and destination of a COPY or ADD, flags (--from, --chown...) set apart. */
export function copyArgs(args: string): { flags: string[]; sources: string[]; dest: string } {
  const flags = args.match(/--\S+/g) ?? [];
  const rest = args.replace(/--\S+\s*/g, '').trim();
  const parts = rest.startsWith('[') ? (JSON.parse(rest) as string[]) : rest.split(' ');
  const dest = parts.pop();
  if (!dest || parts.length === 0) throw new Error(`COPY without a source or destination: ${args}`);
  return { flags, sources: parts, dest };
}

export interface Directive {
  name: string;
  args: string[];
  block?: Directive[];
}

const BLOCKS = new Set([
  'http',
  'events',
  'server',
  'location',
  'upstream',
  'map',
  'geo',
  'if',
  'types',
  'limit_except',
]);

/** nginx configuration as a tree of directives; quoted arguments lose their quotes. */
export function parseNginx(text: string): Directive[] {
  const tokens = tokenizeNginx(text);
  let i = 0;
  const block = (depth: number): Directive[] => {
    const out: Directive[] = [];
    let words: string[] = [];
    while (i < tokens.length) {
      const t = tokens[i++]!;
      if (!t.quoted && t.text === ';') {
        if (words.length === 0) throw new Error('nginx: empty directive');
        out.push({ name: words[0]!, args: words.slice(1) });
        words = [];
      } else if (!t.quoted && t.text === '{') {
        if (words.length === 0) throw new Error('nginx: block without a name');
        if (!BLOCKS.has(words[0]!))
          throw new Error(`nginx: "${words.join(' ')}" takes no block (a missing ";"?)`);
        out.push({ name: words[0]!, args: words.slice(1), block: block(depth + 1) });
        words = [];
      } else if (!t.quoted && t.text === '}') {
        if (depth === 0 || words.length > 0) throw new Error('nginx: unbalanced "}" or a missing ";"');
        return out;
      } else {
        words.push(t.text);
      }
    }
    if (depth > 0 || words.length > 0) throw new Error('nginx: unexpected end of file');
    return out;
  };
  return block(0);
}

function tokenizeNginx(text: string): { text: string; quoted: boolean }[] {
  const tokens: { text: string; quoted: boolean }[] = [];
  const re = /\s+|#[^\n]*|"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|([{};])|([^\s{};"'#][^\s{};]*)/gy;
  for (let pos = 0; pos < text.length; pos = re.lastIndex) {
    re.lastIndex = pos;
    const m = re.exec(text);
    if (!m) throw new Error(`nginx: cannot read from offset ${pos}`);
    if (m[1] !== undefined || m[2] !== undefined) tokens.push({ text: m[1] ?? m[2] ?? '', quoted: true });
    else if (m[3] !== undefined) tokens.push({ text: m[3], quoted: false });
    else if (m[4] !== undefined) tokens.push({ text: m[4], quoted: false });
  }
  return tokens;
}

/** An nginx size ("2m", "512k", "1048576") in bytes. */
export function nginxSize(size: string): number {
  const m = /^(\d+)([kKmMgG]?)$/.exec(size);
  if (!m) throw new Error(`nginx: not a size: ${size}`);
  const unit = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[m[2]!.toLowerCase() as '' | 'k' | 'm' | 'g'];
  return Number(m[1]) * unit;
}

/** Whether .dockerignore patterns keep a path (or a folder above it) out of the build context. */
export function dockerIgnores(patterns: string[], path: string): boolean {
  return patterns.some((pattern) => {
    if (pattern.startsWith('!')) throw new Error('.dockerignore exceptions ("!") are not handled here');
    const glob = pattern.replace(/^\/+|\/+$/g, '');
    const body = glob
      .split('**/')
      .map((part) =>
        part
          .replace(/[.+^${}()|[\]\\]/g, '\\$&')
          .replace(/\*/g, '[^/]*')
          .replace(/\?/g, '[^/]'),
      )
      .join('(?:.*/)?');
    return new RegExp(`^${body}(?:/.*)?$`).test(path);
  });
}
