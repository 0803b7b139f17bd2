// Language test: extern declarations — a generic extern object with
// overloaded constructors and methods, a generic method, extern functions
// (generic and overloaded by argument count), and their instantiation/use.
#include <core.p4>

extern RateEstimator<T> {
    RateEstimator(bit<32> window);
    RateEstimator(bit<32> window, T initial);
    void observe(in T sample);
    void observe(in T sample, in bit<8> weight);
    T current();
    bool above<L>(in L limit);
}

extern Scratchpad {
    Scratchpad();
    void store(in bit<16> slot, in bit<32> value);
    bit<32> load(in bit<16> slot);
}

extern void notify_collector<D>(in D data);
extern bit<16> fold16(in bit<32> value);
extern bit<16> fold16(in bit<32> value, in bit<16> seed);
extern void fill<T>(out T dest);

struct sample_t {
    bit<32> when;
    bit<16> size;
}

Scratchpad() global_pad;   // extern objects may be instantiated at top level

control UsesExterns(inout bit<32> value, inout bit<16> folded) {
    RateEstimator<bit<32>>(32w1000) estimator;
    RateEstimator<bit<16>>(32w10, 16w5) small_estimator;

    apply {
        estimator.observe(value);
        estimator.observe(value, 8w2);
        small_estimator.observe(folded);
        if (estimator.above<bit<32>>(32w5000) || small_estimator.above(8w3)) {
            value = estimator.current();
        }
        folded = fold16(value);
        folded = fold16(value, folded);
        global_pad.store(folded, value);
        value = global_pad.load(0);

        sample_t s;
        fill(s);
        fill<bit<16>>(folded);
        notify_collector(s);
        notify_collector<tuple<bit<32>, bit<16>>>({ value, folded });
    }
}
