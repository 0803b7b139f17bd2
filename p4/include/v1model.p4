/* v1model.p4 */
#include <core.p4>
