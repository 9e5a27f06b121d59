import { CopyButton } from '../../components/ui/copy-button';

/** Code as wrapped text (never a sideways scroll), with «Copiar». */
export function CodeBlock({ code, what, testId }: { code: string; what: string; testId?: string }) {
  return (
    <div className="flex min-w-0 flex-col gap-2">
      <pre
        className="rounded-lg bg-slate-900 p-3 font-mono text-xs whitespace-pre-wrap wrap-anywhere text-slate-50"
        data-testid={testId}
      >
        <code>{code}</code>
      </pre>
      <CopyButton text={code} what={what} />
    </div>
  );
}
