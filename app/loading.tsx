// Shown while a page's server-side work runs (the first start opens the database and warms models).
export default function Loading() {
  return (
    <p className="muted panel" role="status">
      Loading…
    </p>
  );
}
