/** Unit prices in cents by SKU. */
export const CATALOG: Readonly<Record<string, number>> = {
  'MUG-01': 1200,
  'TEE-02': 2500,
  'CAP-03': 1800,
  'BAG-04': 6400,
};
