import { render, screen } from "@testing-library/svelte";
import { describe, expect, it } from "vitest";
import ProofTable from "./ProofTable.svelte";
import { pending } from "../test/runFixtures";

describe("ProofTable", () => {
  it("words each deletion and shows each replay", () => {
    render(ProofTable, { rows: pending.proof });
    const rows = screen.getAllByTestId("proof-row");
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent("Without step 2: 0/3 reproduced");
    expect(rows[0]).toHaveTextContent("4");
    expect(rows[1]).toHaveTextContent("Without step 4: 1/3 reproduced");
    expect(screen.getAllByRole("img", { name: /reproduced/ })).toHaveLength(6);
    expect(screen.getByRole("img", { name: "Replay 2: reproduced" })).toBeInTheDocument();
  });

  it("states each deletion's rate with its 95 % interval", () => {
    render(ProofTable, { rows: pending.proof });
    const rates = screen.getAllByTestId("proof-rate");
    expect(rates[0]).toHaveTextContent("reproduced 0 of 3 (95 % interval 0–57 %)");
    expect(rates[1]).toHaveTextContent("reproduced 1 of 3 (95 % interval 6–80 %)");
    expect(screen.getByRole("columnheader", { name: "Rate" })).toBeInTheDocument();
  });

  it("says when there is no proof", () => {
    render(ProofTable, { rows: [] });
    expect(screen.queryByRole("table")).toBeNull();
    expect(screen.getByText(/no proof that every step is needed/)).toBeInTheDocument();
  });
});
