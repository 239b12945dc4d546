export interface Product {
  id: string;
  name: string;
  priceCents: number;
  inStock: boolean;
}

export type ProductInput = Omit<Product, 'id'>;

/** In-memory products; see REQUIREMENTS.md. Returns copies so callers cannot change stored state. */
export class ProductStore {
  readonly #products = new Map<string, Product>();
  #nextId = 1;

  list(): Product[] {
    return [...this.#products.values()].map((product) => ({ ...product }));
  }

  get(id: string): Product | undefined {
    const product = this.#products.get(id);
    return product && { ...product };
  }

  create(input: ProductInput): Product {
    const product: Product = { id: String(this.#nextId++), ...input };
    this.#products.set(product.id, product);
    return { ...product };
  }

  update(id: string, patch: Partial<ProductInput>): Product | undefined {
    const product = this.#products.get(id);
    if (!product) return undefined;
    Object.assign(product, patch);
    return { ...product };
  }

  remove(id: string): boolean {
    return this.#products.delete(id);
  }
}
