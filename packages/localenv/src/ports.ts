import { createServer } from 'node:net';

export function portFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

// A fixed port keeps URLs stable between runs (handy in .env files and psql history); when it is
// taken by something else, the next few are tried and finally any port the kernel hands out.
export async function pickPort(preferred: number): Promise<number> {
  for (let port = preferred; port < preferred + 20; port++) {
    if (await portFree(port)) return port;
  }
  return unusedPort();
}

// The kernel's pick: free right now, though nothing reserves it until someone listens.
export function unusedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
