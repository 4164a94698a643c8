import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { DecisionForm } from './decision-form';

const GATE = { nodeId: 'approve', reason: 'high-risk action', approverRole: 'approver' };
const render = (rights: Parameters<typeof DecisionForm>[0]['rights']) =>
  renderToStaticMarkup(<DecisionForm goal="Restart checkout-api" gate={GATE} rights={rights} onDecide={() => undefined} />);

describe('DecisionForm', () => {
  it("another's run: Approve and Reject, no note", () => {
    const html = render({ approve: true, reject: true, startedByYou: false });
    expect(html).toContain('>Approve</button>');
    expect(html).toContain('>Reject</button>');
    expect(html).not.toContain('You started this run');
  });

  it('your own run: no Approve button (it would answer FORBIDDEN), says another approver must decide, keeps Reject to withdraw', () => {
    const html = render({ approve: false, reject: true, startedByYou: true });
    expect(html).not.toContain('>Approve</button>');
    expect(html).toContain('You started this run — another approver must decide.');
    expect(html).toContain('>Reject</button>');
  });

  it('a gate needing a role you lack: no buttons, names the role', () => {
    const html = render({ approve: false, reject: false, startedByYou: false });
    expect(html).not.toContain('<button');
    expect(html).toContain('someone with the <strong>approver</strong> role');
  });
});
