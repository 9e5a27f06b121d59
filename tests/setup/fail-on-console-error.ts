import { afterEach, vi } from 'vitest';

// A test that makes the code log an unexpected console.error fails (a habit taken from the Epic
// Stack; see docs/architecture.md §10).
const calls: unknown[][] = [];
const original = console.error;
console.error = (...args: unknown[]) => {
  calls.push(args);
  original(...args);
};

afterEach(() => {
  if (calls.length > 0) {
    const first = calls[0];
    calls.length = 0;
    throw new Error(`console.error was called: ${first?.map(String).join(' ')}`);
  }
  vi.restoreAllMocks();
});
