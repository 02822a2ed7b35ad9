// The price table in use, for whatever shows a cost: the defaults and the user's prices over them
// (Settings' `modelPrices`), made again only when those change. Read with useContext, which adds
// no state or effect to the transcript's messages; outside a provider, the defaults alone.
import { createContext, useContext, useMemo, type ReactNode } from "react";
import { DEFAULT_TABLE, priceTable, type PriceTable, type UserPrices } from "./prices";

const PricesContext = createContext<PriceTable>(DEFAULT_TABLE);

export function PricesProvider({ prices, children }: { prices: UserPrices; children: ReactNode }) {
  const table = useMemo(() => priceTable(prices), [prices]);
  return <PricesContext.Provider value={table}>{children}</PricesContext.Provider>;
}

export function usePrices(): PriceTable {
  return useContext(PricesContext);
}
