export interface Product {
  id: string;
  name: string;
  priceCents: number;
  inStock: boolean;
}

export type ProductInput = Omit<Product, 'id'>;

function notImplemented(): never {
  throw new Error('not implemented');
}

/** In-memory products; see REQUIREMENTS.md. */
export class ProductStore {
  list(): Product[] {
    return notImplemented();
  }

  get(_id: string): Product | undefined {
    return notImplemented();
  }

  create(_input: ProductInput): Product {
    return notImplemented();
  }

  update(_id: string, _patch: Partial<ProductInput>): Product | undefined {
    return notImplemented();
  }

  remove(_id: string): boolean {
    return notImplemented();
  }
}
