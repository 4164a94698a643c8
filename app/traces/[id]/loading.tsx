// The trace is read on the server before the waterfall renders.
export default function TraceLoading() {
  return (
    <p className="muted panel" role="status">
      Loading trace…
    </p>
  );
}
