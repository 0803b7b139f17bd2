// `#` doubles (and escapes) one token's text at every level.
#define S(x) #x #x
#define T(x) S(x)
T(T(T(T(T(T(T(T(T(T(T(T(T(T(T(T(T(T(T(T(T(T(T(T(T(T(T(T(T(T(T(T(T(T(T(T(T(T(T(T(a))))))))))))))))))))))))))))))))))))))))
