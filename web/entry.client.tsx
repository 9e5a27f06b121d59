import { startTransition, StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { HydratedRouter } from 'react-router/dom';
import { stopHoldingEarlyInput } from './lib/early-submit';

// React Router's browser entry, plus one line: from the moment React listens (hydrateRoot), the
// early-input guard of web/lib/early-submit.ts stops noting presses and holding submits, so React
// alone handles them from then on (handled by both, a press would toggle twice and a form be
// sent twice). What it held before is done again once the page has hydrated.
stopHoldingEarlyInput();
startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <HydratedRouter />
    </StrictMode>,
  );
});
