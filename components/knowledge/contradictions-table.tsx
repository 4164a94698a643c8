import type { ContradictionGroup } from '@/server/runtime/contracts/knowledge-explorer';
import { TableScroll } from '@/components/layout/table-scroll';
import styles from './knowledge.module.css';
import { sidesOf } from './knowledge-format';

/** Facts valid now that disagree on one subject and attribute: one row per side (value × source). */
export function ContradictionsTable({ groups, onLineage }: { readonly groups: readonly ContradictionGroup[]; readonly onLineage: (nodeId: string) => void }) {
  return (
    <TableScroll label="Contradictions">
      <table className="data-table" data-testid="knowledge-contradictions">
        <thead>
          <tr>
            <th scope="col">Subject</th>
            <th scope="col">Attribute</th>
            <th scope="col">Value</th>
            <th scope="col">Source</th>
            <th scope="col" className="num">Facts</th>
            <th scope="col">Evidence (first)</th>
            <th scope="col">Lineage</th>
          </tr>
        </thead>
        {groups.length === 0 ? (
          <tbody>
            <tr>
              <td colSpan={7} className="muted">
                No contradictions among current facts.
              </td>
            </tr>
          </tbody>
        ) : (
          // One row group per disagreement: the subject header's scope="rowgroup" then spans exactly
          // its sides, and a screen reader (or a test) finds a disagreement by its subject and attribute.
          groups.map((group) => {
            const sides = sidesOf(group.facts);
            return (
              <tbody key={`${group.subject}-${group.attribute}`} aria-label={`${group.subject} ${group.attribute}`}>
                {sides.map((side, index) => {
                  const first = side.facts[0];
                  return (
                    <tr key={`${group.subject}-${group.attribute}-${side.value}-${side.sourceName}`} data-testid="knowledge-contradiction-row" data-subject={group.subject} data-attribute={group.attribute}>
                      {index === 0 ? (
                        <>
                          <th scope="rowgroup" rowSpan={sides.length}>
                            {group.subject}
                          </th>
                          <td rowSpan={sides.length}>{group.attribute}</td>
                        </>
                      ) : null}
                      <td className="strong">{side.value}</td>
                      <td>{side.sourceName}</td>
                      <td className="num">{side.facts.length}</td>
                      <td>
                        {first.locator ?? ''}
                        <span className={styles.evidence}>{first.evidence}</span>
                      </td>
                      <td>
                        <button type="button" className={styles.linkButton} onClick={() => onLineage(first.factId)}>
                          lineage
                        </button>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            );
          })
        )}
      </table>
    </TableScroll>
  );
}
