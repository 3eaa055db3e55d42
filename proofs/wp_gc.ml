(* Loaded into every frama-c run of the proof gate (proofs/verify.sh,
   -load-module): garbage-collector settings for WP, nothing else.

   Frama-C starts with OCaml's 256 k-word minor heap; WP's VC generation
   allocates fast over deep stacks, so each of its thousands of minor
   collections per step rescans those stacks (caml_oldify_local_roots was
   the top symbol of a perf profile of `make verify`, 10% of the time).  An 8 MB minor heap
   and a lazier major collector took the float step's replay from 219 s to
   170 s of CPU (and its peak memory from 1.0 to 2.2 GB).
   Collector settings change when memory is reclaimed, never a result: the
   replay proves it, every goal's prover input hashing to its committed
   cache entry as before. *)
let () =
  Gc.set { (Gc.get ()) with Gc.minor_heap_size = 1 lsl 20; Gc.space_overhead = 200 }
