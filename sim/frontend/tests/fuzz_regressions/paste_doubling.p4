// `##` doubles one token's text at every level: 2^40 bytes.
#define P(a) Q(a)
#define Q(a) a##a
P(P(P(P(P(P(P(P(P(P(P(P(P(P(P(P(P(P(P(P(P(P(P(P(P(P(P(P(P(P(P(P(P(P(P(P(P(P(P(P(x))))))))))))))))))))))))))))))))))))))))
