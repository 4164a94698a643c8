/**
 * A small ridge regression of learned-v2's residuals on request features, within one group
 * (field, intent class, plan shape). The group mean stays the intercept; the regression only
 * moves an estimate along the features' centred direction, and the ridge penalty (RIDGE_PENALTY
 * pseudo-samples of unit spread) keeps the slopes near zero while featured samples are few, so
 * the group mean dominates until the data says otherwise. Residuals without features (runs
 * recorded before features were stored) count toward the mean only.
 */
import { RIDGE_PENALTY } from './units';

export interface LinearFit {
  /** Mean feature vector of the fitted samples: the regression passes through the group mean there. */
  readonly center: readonly number[];
  readonly slope: readonly number[];
  /** (XᵀX + λI)⁻¹ of the centred features: a sample's leverage on its own fitted value (leverage()). */
  readonly inverseGram: readonly (readonly number[])[];
}

/** Fewest featured residuals worth a slope (below it, the group mean alone). */
export const REGRESSION_MIN_SAMPLES = 3;

/** Fits slopes on the featured residuals, or undefined when there are too few. */
export function fitResiduals(residuals: readonly number[], features: readonly (readonly number[] | undefined)[]): LinearFit | undefined {
  const rows: { readonly x: readonly number[]; readonly y: number }[] = [];
  residuals.forEach((y, index) => {
    const x = features[index];
    if (x) rows.push({ x, y });
  });
  if (rows.length < REGRESSION_MIN_SAMPLES) return undefined;
  const width = rows[0].x.length;
  const center = Array.from({ length: width }, (_, column) => rows.reduce((sum, row) => sum + row.x[column], 0) / rows.length);
  const meanY = rows.reduce((sum, row) => sum + row.y, 0) / rows.length;
  // Normal equations of the centred ridge problem: (XᵀX + λI) β = Xᵀ(y − ȳ).
  const gram = Array.from({ length: width }, (_, i) => Array.from({ length: width }, (_, j) => (i === j ? RIDGE_PENALTY : 0)));
  const moment = new Array<number>(width).fill(0);
  for (const row of rows) {
    const dx = row.x.map((value, column) => value - center[column]);
    for (let i = 0; i < width; i += 1) {
      moment[i] += dx[i] * (row.y - meanY);
      for (let j = 0; j < width; j += 1) gram[i][j] += dx[i] * dx[j];
    }
  }
  const slope = solve(gram, moment);
  const inverseGram = invert(gram);
  return slope && inverseGram ? { center, slope, inverseGram } : undefined;
}

/**
 * How much a featured sample pulls the slopes toward itself: (x − x̄)ᵀ(XᵀX + λI)⁻¹(x − x̄), the
 * slope part of the ridge hat matrix's diagonal (0 without features or fit). Its residual left out
 * of the fit is the in-sample residual ÷ (1 − leverage): the ridge leave-one-out identity.
 */
export function leverage(fit: LinearFit | undefined, x: readonly number[] | undefined): number {
  if (!fit || !x) return 0;
  const dx = x.map((value, column) => value - fit.center[column]);
  let total = 0;
  for (let i = 0; i < dx.length; i += 1) for (let j = 0; j < dx.length; j += 1) total += dx[i] * fit.inverseGram[i][j] * dx[j];
  return Number.isFinite(total) ? Math.max(0, total) : 0;
}

/** Inverse of a small symmetric positive-definite matrix, column by column through solve(). */
function invert(matrix: readonly (readonly number[])[]): number[][] | undefined {
  const size = matrix.length;
  const columns: number[][] = [];
  for (let column = 0; column < size; column += 1) {
    const solved = solve(matrix.map((row) => [...row]), Array.from({ length: size }, (_, row) => (row === column ? 1 : 0)));
    if (!solved) return undefined;
    columns.push(solved);
  }
  return Array.from({ length: size }, (_, row) => columns.map((column) => column[row]));
}

/** The fit's move from the group mean for a request's features (0 without features or fit). */
export function adjustment(fit: LinearFit | undefined, x: readonly number[] | undefined): number {
  if (!fit || !x) return 0;
  let total = 0;
  for (let column = 0; column < fit.slope.length; column += 1) total += fit.slope[column] * (x[column] - fit.center[column]);
  return Number.isFinite(total) ? total : 0;
}

/** Gaussian elimination with partial pivoting; the ridge term keeps the matrix positive definite. */
function solve(matrix: number[][], vector: number[]): number[] | undefined {
  const size = vector.length;
  const a = matrix.map((row, index) => [...row, vector[index]]);
  for (let column = 0; column < size; column += 1) {
    let pivot = column;
    for (let row = column + 1; row < size; row += 1) if (Math.abs(a[row][column]) > Math.abs(a[pivot][column])) pivot = row;
    if (Math.abs(a[pivot][column]) < 1e-12) return undefined;
    [a[column], a[pivot]] = [a[pivot], a[column]];
    for (let row = column + 1; row < size; row += 1) {
      const factor = a[row][column] / a[column][column];
      for (let k = column; k <= size; k += 1) a[row][k] -= factor * a[column][k];
    }
  }
  const result = new Array<number>(size).fill(0);
  for (let row = size - 1; row >= 0; row -= 1) {
    let sum = a[row][size];
    for (let k = row + 1; k < size; k += 1) sum -= a[row][k] * result[k];
    result[row] = sum / a[row][row];
  }
  return result;
}
