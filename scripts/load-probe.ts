/**
 * Loaded into the server process by `npm run load` (node --import): answers the
 * parent's "memory" messages with this process's memory figures, after a full GC
 * when the process runs with --expose-gc, so before/after are comparable.
 */
process.on('message', (message: unknown) => {
  if (message !== 'memory') return;
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
  process.send?.({ memory: process.memoryUsage() });
});
// Keep the IPC channel from holding the server up on shutdown.
process.channel?.unref();
