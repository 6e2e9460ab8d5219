// A box for a table that may be wider than the screen: it scrolls sideways on its own, shows a
// shadow on the side with more (globals.css, .scroll-hint), and takes keyboard focus so it can be
// scrolled without a pointer.
export function ScrollArea({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div role="region" aria-label={label} tabIndex={0} className="scroll-hint overflow-x-auto">
      {children}
    </div>
  );
}
