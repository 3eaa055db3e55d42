/* em_score_revenue: the revenue of posted prices (seed 003, pricing) in
   integer price units.  Bids and prices are integers k meaning k * unit for a
   public unit > 0 (e.g. 0.001): u[j] = prices[j] * #{i : bids[i] >= prices[j]},
   and the real revenue is u[j] * unit exactly (the caller's scaling; the core
   never rounds).  Logic: spec/Revenue.acsl.  Sensitivity lemmas:
   proofs/lemmas/ScoreRevenue_lemmas.h.  Tests: tests/test_score.c. */
#ifndef EM_SCORE_REVENUE_H
#define EM_SCORE_REVENUE_H
#include "em_base.h"
#include <stddef.h>
#include <stdint.h>
#include "spec/Revenue.acsl"

/* u[j] = Revenue(bids, n, prices[j]), every price in [0, pmax].
   Sensitivity pmax (in units) under add/remove and substitution, attained;
   monotone under add/remove (Revenue_Insert, Revenue_Subst, Revenue_Tight).
   Errors: EM_ERR_NULL, EM_ERR_EMPTY (n == 0 or m == 0), EM_ERR_DOMAIN
   (pmax <= 0, or a price outside [0, pmax]), EM_ERR_OVERFLOW
   (n * pmax > INT64_MAX).  u is written only on EM_OK. */
/*@ requires valid_u: u == \null || \valid(u + (0 .. m - 1));
    requires valid_bids: bids == \null || \valid_read(bids + (0 .. n - 1));
    requires valid_prices: prices == \null || \valid_read(prices + (0 .. m - 1));
    requires separated: u == \null || bids == \null || prices == \null ||
                        \separated(u + (0 .. m - 1), bids + (0 .. n - 1), prices + (0 .. m - 1));
    assigns u[0 .. m - 1];
    behavior null:
      assumes u == \null || bids == \null || prices == \null;
      assigns \nothing;
      ensures null: \result == EM_ERR_NULL;
    behavior empty:
      assumes u != \null && bids != \null && prices != \null;
      assumes n == 0 || m == 0;
      assigns \nothing;
      ensures empty: \result == EM_ERR_EMPTY;
    behavior bad_price:
      assumes u != \null && bids != \null && prices != \null && n > 0 && m > 0;
      assumes pmax <= 0 || !PricesIn(prices, m, pmax);
      assigns \nothing;
      ensures domain: \result == EM_ERR_DOMAIN;
    behavior overflow:
      assumes u != \null && bids != \null && prices != \null && n > 0 && m > 0;
      assumes pmax > 0 && PricesIn(prices, m, pmax);
      assumes n > INT64_MAX / pmax;
      assigns \nothing;
      ensures overflow: \result == EM_ERR_OVERFLOW;
    behavior ok:
      assumes u != \null && bids != \null && prices != \null && n > 0 && m > 0;
      assumes pmax > 0 && PricesIn(prices, m, pmax);
      assumes n <= INT64_MAX / pmax;
      assigns u[0 .. m - 1];
      ensures ok: \result == EM_OK;
      ensures score: \forall integer j; 0 <= j < m ==> u[j] == Revenue(bids, n, prices[j]);
      ensures range: \forall integer j; 0 <= j < m ==> 0 <= u[j] <= pmax * n;
    complete behaviors;
    disjoint behaviors;
 */
int em_score_revenue(size_t n, const int64_t *bids, size_t m, const int64_t *prices,
                     int64_t pmax, int64_t *u);

#endif
