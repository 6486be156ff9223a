// shape.cpp: shapes and areas.
#include <cmath>
#include <memory>
#include <vector>

namespace geo {

// Shape is the base of every shape.
class Shape {
public:
    virtual ~Shape() = default;
    virtual double area() const = 0;
};

class Circle : public Shape {
public:
    explicit Circle(double r) : r_(r) {}
    double area() const override { return M_PI * r_ * r_; }
private:
    double r_;
};

struct Point { double x, y; };

template <typename T>
T clamp(T v, T lo, T hi) {
    return v < lo ? lo : (v > hi ? hi : v);
}

double total_area(const std::vector<std::unique_ptr<Shape>>& shapes);

}  // namespace geo

double geo::total_area(const std::vector<std::unique_ptr<geo::Shape>>& shapes) {
    double s = 0;
    for (const auto& sh : shapes) s += sh->area();
    return s;
}

int main() {
    return 0;
}
