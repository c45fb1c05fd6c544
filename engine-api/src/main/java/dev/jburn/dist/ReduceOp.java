package dev.jburn.dist;

/** How an all-reduce combines the replicas' tensors. */
public enum ReduceOp {
    /** The element-wise sum over the replicas. */
    SUM,
    /** The element-wise sum divided by the number of replicas (floating-point types only). */
    AVERAGE
}
