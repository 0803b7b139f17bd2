// Language test (P4 1.2.2+): an extern object with abstract methods that the
// program implements in an object initializer; the implementation calls a
// built-in method of the same instance through `this`.
#include <core.p4>

extern LaneSteering {
    LaneSteering(bit<8> lanes);
    bit<32> active_flows();
    abstract bit<3> choose_lane(in bit<32> flow_key, in bit<8> weight);
    abstract void on_idle();
}

control SteerFlows(in bit<32> key_in, in bit<8> weight_in, out bit<3> lane) {
    LaneSteering(8w6) steering = {
        bit<3> choose_lane(in bit<32> flow_key, in bit<8> weight) {
            bit<32> load = this.active_flows();
            bit<32> mixed = flow_key ^ load ^ (bit<32>)weight;
            return mixed[2:0];
        }
        void on_idle() { }
    };

    apply {
        lane = steering.choose_lane(key_in, weight_in);
    }
}
