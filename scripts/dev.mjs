// `npm run dev`: the API server on :3000 (restarts on change) and Vite with hot reload on :5173.
import { spawn } from 'node:child_process';
import { withDevMailboxDefault } from './dev-mailbox.mjs';

const children = [
  spawn(process.execPath, ['--import', 'tsx', '--watch', 'server/index.ts'], {
    stdio: 'inherit',
    env: withDevMailboxDefault({
      NODE_ENV: 'development',
      APP_URL: 'http://localhost:5173',
      ...process.env,
    }),
  }),
  spawn('npx', ['react-router', 'dev'], { stdio: 'inherit' }),
];
function stop() {
  for (const c of children) c.kill('SIGTERM');
  process.exit(0);
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
