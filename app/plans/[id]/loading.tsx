// The run is read on the server before the explorer renders; a large plan takes a moment.
export default function PlanLoading() {
  return (
    <p className="muted panel" role="status">
      Loading plan…
    </p>
  );
}
