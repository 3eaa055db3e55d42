(* Loaded into every frama-c run of the proof gate (proofs/verify.sh,
   -load-module): the garbage collector's settings and the pause of Frama-C's
   task scheduler, nothing else.

   Frama-C starts with OCaml's 256 k-word minor heap; WP's VC generation
   allocates fast over deep stacks, so each of its thousands of minor
   collections per step rescans those stacks (caml_oldify_local_roots was
   the top symbol of a perf profile of `make verify`, 10% of the time).  An 8 MB minor heap
   and a lazier major collector took the float step's replay from 219 s to
   170 s of CPU (and its peak memory from 1.0 to 2.2 GB).
   Collector settings change when memory is reclaimed, never a result: the
   replay proves it, every goal's prover input hashing to its committed
   cache entry as before.

   WP's goals run on Frama-C's task server (Task), whose batch loop sleeps
   50 ms after every pass that leaves a task unfinished: in a replay, where no
   prover runs, that is pure waiting (80 passes in the integer step's proofs,
   4 s with its core idle), and in a proving run every prover's answer waited
   up to 50 ms to be read (score-misc's proofs with the provers racing, no
   cache: 13.3 to 13.5 s wall, 6.4 to 7.5 s with 1 ms, the same CPU).  The
   loop below is Frama-C's own with a 1 ms pause: the passes, and so what each
   does, are the same; only the waiting between them is shorter. *)
let () =
  Gc.set { (Gc.get ()) with Gc.minor_heap_size = 1 lsl 20; Gc.space_overhead = 200 };
  Task.on_idle :=
    (fun f -> try while f () do Unix.sleepf 0.001 done with Db.Cancel -> ())
