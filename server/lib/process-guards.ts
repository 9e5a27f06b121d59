// What the process does with an error nobody handled. A promise rejected with no handler is a bug
// of ours or of a library (pg-boss used to fail a job's bookkeeping that way): it is logged with
// what we know and the server keeps serving, instead of Node's default of exiting. An uncaught
// exception still ends the process (its state may be broken), but only after it is logged.
import { safeError } from '../jobs/safe-error';
import type { Logger } from './logger';

let installed: ((reason: unknown) => void) | null = null;

/** Installs the handlers once per process; returns a function that removes them (tests). */
export function guardProcess(logger: Logger): () => void {
  if (installed) process.off('unhandledRejection', installed);
  const onRejection = (reason: unknown) => {
    logger.error(
      { err: safeError(reason) },
      'unhandled promise rejection (the server keeps running)',
    );
  };
  const onException = (err: Error, origin: string) => {
    logger.fatal({ err: safeError(err), origin }, 'uncaught exception: the process ends');
    logger.flush();
  };
  installed = onRejection;
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtExceptionMonitor', onException);
  return () => {
    process.off('unhandledRejection', onRejection);
    process.off('uncaughtExceptionMonitor', onException);
    if (installed === onRejection) installed = null;
  };
}
