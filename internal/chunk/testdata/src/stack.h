// stack.h: a bounded stack.
#pragma once

#include <cstddef>

namespace util {

template <typename T, std::size_t N>
class Stack {
public:
    bool push(const T& v) {
        if (n_ == N) return false;
        items_[n_++] = v;
        return true;
    }
    T pop();
    std::size_t size() const { return n_; }

private:
    T items_[N];
    std::size_t n_ = 0;
};

}  // namespace util
