export default async function globalTeardown(): Promise<void> {
  const backing = (globalThis as { __evdsBacking?: { stop(): Promise<void> } }).__evdsBacking;
  await backing?.stop();
}
