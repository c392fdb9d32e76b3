/** Dense Cholesky factorisation of a symmetric positive definite m x m matrix (row-major), in place. */

/** In-place Cholesky factor (lower) of a symmetric m x m matrix; false when it is not positive definite. */
export function cholesky(a: Float64Array, m: number): boolean {
  for (let j = 0; j < m; j++) {
    let d = a[j * m + j];
    for (let k = 0; k < j; k++) d -= a[j * m + k] * a[j * m + k];
    if (!(d > 0)) return false;
    const l = Math.sqrt(d);
    a[j * m + j] = l;
    for (let i = j + 1; i < m; i++) {
      let s = a[i * m + j];
      for (let k = 0; k < j; k++) s -= a[i * m + k] * a[j * m + k];
      a[i * m + j] = s / l;
    }
  }
  return true;
}

/** Solves L L^T x = b in place (b becomes x) with the factor from `cholesky`. */
export function solveCholesky(l: Float64Array, m: number, b: Float64Array): void {
  for (let i = 0; i < m; i++) {
    let s = b[i];
    for (let k = 0; k < i; k++) s -= l[i * m + k] * b[k];
    b[i] = s / l[i * m + i];
  }
  for (let i = m - 1; i >= 0; i--) {
    let s = b[i];
    for (let k = i + 1; k < m; k++) s -= l[k * m + i] * b[k];
    b[i] = s / l[i * m + i];
  }
}
